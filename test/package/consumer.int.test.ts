/**
 * The package as users get it: `npm pack` (which builds dist/ through `prepack`), the tarball
 * installed into a new ESM project beside Node 22 and Node 24 binaries and TypeScript 5, all
 * pinned from the npm registry, and then:
 * - plain `.mjs` importing `operator-runtime` and `operator-runtime/testing` on both Nodes,
 *   reconciling a ConfigMap and a Deployment on LocalCluster;
 * - a TypeScript operator type-checked with TypeScript 5 and the repo's TypeScript
 *   (`module: nodenext`, `strict`, `skipLibCheck: false`), then run;
 * - the `operator-runtime` command from `node_modules/.bin`, through its shebang;
 * - the tarball's file list: built output and docs only (plus the Kubernetes `.proto` files
 *   LocalCluster reads protobuf bodies with, and their README and LICENSE).
 * Nothing here imports from `src/`: a broken export map, a `.ts` import path left in the output
 * or a missing type dependency fails these tests.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { loadAll } from "js-yaml";
import { ResourceClient } from "../../src/index.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { waitFor } from "../support/wait.ts";
import { docPrograms } from "./readme-programs.ts";
import type { ObjectKey, ReadmeProgram } from "./readme-programs.ts";
import { README_SETUPS } from "./readme-setups.ts";

const execFileP = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const fixtureDir = fileURLToPath(new URL("./consumer/", import.meta.url));
const require = createRequire(import.meta.url);

/** The oldest Node the package supports (`engines.node`), and the repo's own Node 24. */
const NODE_22 = "22.19.0";
const NODE_24 = (require("node/package.json") as { version: string }).version;
/** Where the built package keeps the Kubernetes `.proto` files LocalCluster reads at run time. */
const PROTO_DIR = "dist/src/testing/protobuf/k8s-proto";
const OPENAPI_DIR = "dist/src/testing/openapi/kube-openapi-1.36";
/** The dashboard's page, served by the Manager from beside its modules. */
const DASHBOARD_ASSETS = "dist/src/dashboard/assets";
/**
 * The TypeScripts a consumer may check with, by the alias they install under: the oldest the
 * README promises (5.7, the first that checks client-node's and its dependencies' declarations
 * with `skipLibCheck: false`) and the newest 5.x, the one most users have. The repo's own
 * TypeScript 7 is checked too.
 */
const TYPESCRIPTS = { typescript57: "~5.7.0", typescript5: "5" } as const;
/** Each step's bound: npm installs download Node binaries on a cold cache. */
const STEP_MS = 300_000;

/** The programs of README.md and docs/*.md: each ```ts block, type-checked and run below. */
const PROGRAMS = docPrograms(repoRoot);
/** A doc program's bound: it starts a cluster or an operator and reconciles a few objects. */
const PROGRAM_MS = 60_000;

/** Runs a command and returns its stdout; a failure carries the command's output. */
async function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeout = STEP_MS): Promise<string> {
  try {
    const { stdout } = await execFileP(file, args, { cwd, timeout, maxBuffer: 64 * 1024 * 1024, env: { ...env, NO_COLOR: "1" } });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}:\n${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** A document of `gen rbac`'s output, as far as the test reads it. */
interface RbacDoc {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: { resources: string[]; verbs: string[] }[];
}

/** The last line of a program's stdout, parsed as JSON. */
function lastJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split("\n");
  return JSON.parse(lines[lines.length - 1]!) as Record<string, unknown>;
}

describe("the packed package installed into a new project", { timeout: 4 * STEP_MS }, () => {
  let work: string;
  let consumer: string;
  let tarball: string;
  let packedFiles: string[];

  before(async () => {
    work = mkdtempSync(path.join(tmpdir(), "operator-runtime-consumer-"));
    consumer = path.join(work, "consumer");
    // npm prints the prepack build's output before the JSON report.
    const out = await run("npm", ["pack", "--json", "--pack-destination", work], repoRoot);
    const report = JSON.parse(out.slice(out.indexOf("\n[") + 1)) as { filename: string; files: { path: string }[] }[];
    tarball = path.join(work, report[0]!.filename);
    packedFiles = report[0]!.files.map((f) => f.path);

    const pkg = {
      name: "operator-runtime-consumer", private: true, type: "module",
      dependencies: {
        "operator-runtime": `file:${tarball}`,
        node22: `npm:node@${NODE_22}`,
        node24: `npm:node@${NODE_24}`,
        ...Object.fromEntries(Object.entries(TYPESCRIPTS).map(([alias, range]) => [alias, `npm:typescript@${range}`])),
      },
      allowScripts: { node: true },
    };
    mkdirSync(consumer);
    writeFileSync(path.join(consumer, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    for (const file of readdirSync(fixtureDir)) copyFileSync(path.join(fixtureDir, file), path.join(consumer, file));
    for (const program of PROGRAMS) writeFileSync(path.join(consumer, program.file), program.code);
    writeFileSync(path.join(consumer, "tsconfig.readme.json"), JSON.stringify({ extends: "./tsconfig.json", files: PROGRAMS.map((p) => p.file) }));
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], consumer);
  }, { timeout: 3 * STEP_MS });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const nodeBinary = (alias: string) => path.join(consumer, "node_modules", alias, "bin", "node");

  it("ships only the built output, README, the guides in docs/, ARCHITECTURE, CHANGELOG, LICENSE and package.json", () => {
    const outside = packedFiles.filter((f) => !f.startsWith("dist/"));
    const guides = readdirSync(path.join(repoRoot, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
    assert.ok(guides.includes("docs/builder.md"), "the Builder guide ships: the README links it");
    assert.deepEqual(outside.sort(), ["ARCHITECTURE.md", "CHANGELOG.md", "LICENSE", "README.md", ...guides, "package.json"].sort());
    const protoData = (f: string) => f.startsWith(`${PROTO_DIR}/`) && /(\.proto|\/README\.md|\/LICENSE)$/.test(f);
    const openApiData = (f: string) => f.startsWith(`${OPENAPI_DIR}/`) && /(\.json\.br|\/(api|apis|version)\.json|\/README\.md|\/LICENSE)$/.test(f);
    const dashboardPage = (f: string) => f.startsWith(`${DASHBOARD_ASSETS}/`) && /\/[a-z-]+\.(html|js|css|svg)$/.test(f);
    const notBuilt = packedFiles.filter((f) => f.startsWith("dist/") && !/\.(js|js\.map|d\.ts)$/.test(f) && !protoData(f) && !openApiData(f) && !dashboardPage(f));
    assert.deepEqual(notBuilt, [], "dist/ holds .js, .js.map and .d.ts only, the vendored .proto and OpenAPI data, and the dashboard's page");
    for (const asset of ["index.html", "app.js", "app.css"]) assert.ok(packedFiles.includes(`${DASHBOARD_ASSETS}/${asset}`), `the dashboard's ${asset} ships`);
    assert.ok(packedFiles.includes(`${OPENAPI_DIR}/swagger.json.br`), "the vendored OpenAPI documents ship");
    assert.ok(packedFiles.includes(`${PROTO_DIR}/k8s.io/api/core/v1/generated.proto`), "ships the protobuf definitions LocalCluster loads");
    assert.ok(packedFiles.includes(`${PROTO_DIR}/LICENSE`) && packedFiles.includes(`${PROTO_DIR}/README.md`), "with their origin and licence");
    assert.deepEqual(packedFiles.filter((f) => /(^|\/)(test|bench|examples|scripts|\.ci)\//.test(f) || /\.test\./.test(f)), [], "no test, bench, example or CI files");
    assert.ok(packedFiles.includes("dist/src/index.js") && packedFiles.includes("dist/src/index.d.ts"));
    assert.ok(packedFiles.includes("dist/src/testing/index.js") && packedFiles.includes("dist/src/testing/index.d.ts"));
  });

  for (const [alias, version] of [["node22", NODE_22], ["node24", NODE_24]] as const) {
    it(`imports every entry point from plain .mjs and reconciles on Node ${version}`, { timeout: STEP_MS }, async () => {
      const result = lastJsonLine(await run(nodeBinary(alias), ["smoke.mjs"], consumer));
      assert.equal(result.node, `v${version}`);
      const entries = result.entries as Record<string, number>;
      for (const sub of ["builder", "client", "cache", "controller", "sharding", "rbac", "webhook"]) assert.ok(entries[sub]! > 3, `operator-runtime/${sub} exports ${entries[sub]} values`);
      assert.equal(result.deprecatedAlias, true, "the 0.1 root name Result is the deprecated alias of Action");
      assert.deepEqual(result.first, ["ConfigMap/web-config:created", "Deployment/web:created"]);
      assert.deepEqual(result.second, ["ConfigMap/web-config:unchanged", "Deployment/web:unchanged"]);
      assert.equal(result.ok, true);
      assert.equal(result.owner, true, "the Deployment is controlled by the owner");
      assert.equal(result.hashEnv, true, "the Deployment carries the ConfigMap's hash");
      assert.equal(result.protobuf, "201 Namespace/foo", "a protobuf body is read with the shipped .proto files");
    });
  }

  for (const [alias, range] of Object.entries(TYPESCRIPTS)) {
    it(`type-checks a TypeScript operator with TypeScript ${range} (nodenext, strict, skipLibCheck false)`, { timeout: STEP_MS }, async () => {
      const tsc = path.join(consumer, "node_modules", alias, "bin", "tsc");
      const version = await run(nodeBinary("node24"), [tsc, "--version"], consumer);
      assert.match(version, alias === "typescript57" ? /^Version 5\.7\./ : /^Version 5\./);
      await run(nodeBinary("node24"), [tsc, "-p", "tsconfig.json"], consumer);
    });
  }

  it("type-checks the same operator with the repo's own TypeScript", { timeout: STEP_MS }, async () => {
    const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc");
    await run(process.execPath, [tsc, "-p", "tsconfig.json"], consumer);
  });

  it("marks every 0.1 root name that moved or was renamed as deprecated in a consumer's editor (TypeScript 5.x language service)", { timeout: STEP_MS }, async () => {
    const deprecatedSource = readFileSync(path.join(repoRoot, "src/deprecated.ts"), "utf8");
    const aliases = [...deprecatedSource.matchAll(/\/\*\* @deprecated [^*]*\*\/\n {2}(\w+)(?: as (\w+))?,/g)].map((m) => m[2] ?? m[1]!);
    const kinds = JSON.parse(readFileSync(path.join(repoRoot, "test/api/root-exports-0.1.json"), "utf8")) as Record<string, "value" | "type">;
    assert.ok(aliases.length > 150, `read ${aliases.length} aliases`);
    const values = aliases.filter((n) => kinds[n] === "value");
    const types = aliases.filter((n) => kinds[n] === "type");
    writeFileSync(path.join(consumer, "deprecated-use.ts"), [
      `import { ${values.join(", ")} } from "operator-runtime";`,
      `import type { ${types.join(", ")} } from "operator-runtime";`,
      "import { Builder } from \"operator-runtime\";",
      `console.log(Builder, ${values.join(", ")});`,
      "",
    ].join("\n"));
    const report = lastJsonLine(await run(nodeBinary("node24"), ["deprecations.mjs", "typescript5", "deprecated-use.ts"], consumer)) as { deprecated: string[]; errors: string[] };
    assert.deepEqual(report.errors, [], "the old names still import and type-check");
    assert.deepEqual(report.deprecated, [...aliases].sort(), "each alias, and nothing else (Builder is not), is reported deprecated");
  });

  it("finds type errors in a consumer's code through the published types", { timeout: STEP_MS }, async () => {
    const broken = readFileSync(path.join(consumer, "operator.ts"), "utf8")
      .replace('spec: { name: "World" }', 'spec: { nmae: "World" }');
    assert.notEqual(broken, readFileSync(path.join(consumer, "operator.ts"), "utf8"));
    writeFileSync(path.join(consumer, "broken.ts"), broken);
    writeFileSync(path.join(consumer, "tsconfig.broken.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["broken.ts"] }));
    const tsc = path.join(consumer, "node_modules", "typescript5", "bin", "tsc");
    await assert.rejects(run(nodeBinary("node24"), [tsc, "-p", "tsconfig.broken.json"], consumer), /nmae/);
  });

  it("runs the TypeScript operator: a Manager reconciles a typed custom resource through the Builder", { timeout: STEP_MS }, async () => {
    const result = lastJsonLine(await run(nodeBinary("node24"), ["operator.ts"], consumer));
    assert.deepEqual(result, { message: "Hello, World", objects: ["ConfigMap/world-message", "Deployment/world"], owned: true });
  });

  it("installs the operator-runtime command: node_modules/.bin/operator-runtime --help exits 0", { timeout: STEP_MS }, async () => {
    // Run as a shell would (the shebang finds `node` on PATH), which needs the build to keep the
    // shebang and npm to link the bin executable.
    const bin = path.join(consumer, "node_modules", ".bin", "operator-runtime");
    const env = { ...process.env, PATH: `${path.dirname(nodeBinary("node24"))}${path.delimiter}${process.env.PATH ?? ""}` };
    assert.match(await run(bin, ["--help"], consumer, env), /^usage: operator-runtime <command>/);
    assert.equal((await run(bin, ["--version"], consumer, env)).trim(), JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")).version);
  });

  for (const [alias, version] of [["node22", NODE_22], ["node24", NODE_24]] as const) {
    it(`generates RBAC and manifests from docs/toolbox.md's operator module with the installed command on Node ${version}`, { timeout: STEP_MS }, async () => {
      const program = PROGRAMS.find((p) => p.section === "`operator-runtime gen rbac`");
      assert.ok(program, "docs/toolbox.md's gen rbac section has a module");
      const bin = path.join(consumer, "node_modules", ".bin", "operator-runtime");
      const env = { ...process.env, PATH: `${path.dirname(nodeBinary(alias))}${path.delimiter}${process.env.PATH ?? ""}` };
      const rbac = loadAll(await run(bin, ["gen", "rbac", program.file, "--namespace", "operators"], consumer, env)) as RbacDoc[];
      const clusterRole = rbac.find((d) => d.kind === "ClusterRole");
      assert.ok(clusterRole?.rules?.some((r) => r.resources[0] === "greetings/status" && r.verbs.join() === "patch"), JSON.stringify(clusterRole));
      assert.deepEqual(rbac.filter((d) => d.kind === "Role").map((d) => d.metadata.namespace), ["operators"], "the Lease's Role");
      const all = loadAll(await run(bin, ["gen", "manifests", program.file, "--image", "example/greeting:1"], consumer, env)) as RbacDoc[];
      assert.deepEqual(all.map((d) => d.kind).filter((k, i, a) => a.indexOf(k) === i),
        ["CustomResourceDefinition", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "Deployment"]);
    });
  }

  it("has README and docs programs to check", () => {
    assert.ok(PROGRAMS.length >= 4, `README.md and docs/*.md have ${PROGRAMS.length} ts blocks`);
  });

  it("type-checks every README and docs program with TypeScript 5.7, 5.x and the repo's TypeScript", { timeout: STEP_MS }, async () => {
    for (const alias of Object.keys(TYPESCRIPTS)) {
      await run(nodeBinary("node24"), [path.join(consumer, "node_modules", alias, "bin", "tsc"), "-p", "tsconfig.readme.json"], consumer);
    }
    const ts = path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc");
    await run(process.execPath, [ts, "-p", "tsconfig.readme.json"], consumer);
  });

  for (const program of PROGRAMS) {
    it(`runs the program at ${program.source}:${program.line} (${program.section})`, { timeout: 2 * PROGRAM_MS }, async () => {
      await runReadmeProgram(program, nodeBinary("node24"), consumer);
    });
  }
});

/** The object, or undefined when it does not exist. */
async function find(client: ResourceClient, key: ObjectKey): Promise<unknown> {
  try {
    return await client.get(key);
  } catch {
    return undefined;
  }
}

/**
 * Runs one README or docs program against a fresh LocalCluster through `KUBECONFIG`: creates its setup,
 * runs it to exit code 0 (or until its `signalAfter` object exists, then SIGTERM and exit code
 * 0), and checks that its `expect` objects exist.
 */
async function runReadmeProgram(program: ReadmeProgram, node: string, cwd: string): Promise<void> {
  const cluster = await LocalCluster.start();
  try {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "readme-test" });
    for (const obj of program.setup ? README_SETUPS[program.setup] ?? assert.fail(`no doc-test setup named ${program.setup} (${program.source}:${program.line})`) : []) {
      await waitFor(() => client.create(obj), `setup ${obj.kind}/${obj.metadata?.name} for ${program.source}:${program.line}`);
    }
    const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: cluster.kubeconfigPath, HEALTH_PORT: "0", NO_COLOR: "1" };
    delete env.KUBERNETES_SERVICE_HOST;  // never the machine's own cluster, should CI run in a pod
    const where = `${program.source}:${program.line} (${program.file})`;
    if (!program.signalAfter) {
      await run(node, [program.file], cwd, env, PROGRAM_MS);
    } else {
      const child = spawn(node, [program.file], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      try {
        const target = program.signalAfter;
        await waitFor(async () => child.exitCode === null && (await find(client, target)),
          `${where} to create ${target.kind}/${target.name} while running`, PROGRAM_MS).catch((err: Error) => {
          throw new Error(`${err.message}\n${output}`);
        });
        child.kill("SIGTERM");
        const [code, signal] = await Promise.race([
          exited,
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${where} did not exit within 20 s of SIGTERM\n${output}`)), 20_000).unref()),
        ]);
        assert.equal(code, 0, `${where} exits 0 on SIGTERM (signal ${signal})\n${output}`);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }
    }
    for (const key of program.expect) {
      assert.ok(await find(client, key), `${where} leaves ${key.kind} ${key.namespace ?? ""}/${key.name}`);
    }
  } finally {
    await cluster.stop();
  }
}
