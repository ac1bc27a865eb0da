import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { importsOf } from "./imports.ts";
import type { ImportStatement } from "./imports.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Repo-relative `.ts` files below `dir`, with `/` separators. */
function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join("/"))
    .sort();
}

/** The repo-relative path an import points at, or undefined for a package (`node:fs`, `lru-cache`). */
function target(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  return posix.normalize(posix.join(posix.dirname(file), specifier));
}

const under = (path: string, folder: string) => path.startsWith(`${folder}/`);

/**
 * The layers of src/, lowest first (ARCHITECTURE.md, "Layers"): a file imports only from its own
 * folder or a lower layer. Folders on one layer do not import each other.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["src/errors.ts"],
  ["src/util"],
  ["src/log"],
  ["src/kinds"],
  ["src/client"],
  ["src/hash", "src/events"],
  ["src/cache"],
  ["src/controller"],
  ["src/rbac", "src/lease"],
  ["src/sharding"],
  ["src/webhook"],
  ["src/dashboard"],
  ["src/manager"],
  ["src/builder"],
  ["src/cli"],
  ["src/entries"],
  ["src/deprecated.ts"],
  ["src/index.ts"],
];

/** The layer unit a src/ path belongs to (`src/cache`, `src/errors.ts`), or undefined outside them. */
export function unitOf(path: string): string | undefined {
  const parts = path.split("/");
  if (parts[0] !== "src") return undefined;
  const unit = parts.length === 2 ? path : `src/${parts[1]}`;
  return LAYERS.some((l) => l.includes(unit)) ? unit : undefined;
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((l) => l.includes(unit));
}

/**
 * The dependency arrows, as ARCHITECTURE.md draws them. Each returns why an import breaks
 * it, or undefined.
 */
const RULES: readonly { name: string; check: (file: string, to: string, imp: ImportStatement) => string | undefined }[] = [
  {
    name: "src/ imports point down the layers (LAYERS)",
    check: (file, to) => {
      const from = unitOf(file);
      const target = unitOf(to);
      if (from === undefined || target === undefined || from === target) return undefined;
      if (layerOf(target) < layerOf(from)) return undefined;
      return `${from} (layer ${layerOf(from)}) may not import ${target} (layer ${layerOf(target)}): imports point down the layers`;
    },
  },
  {
    name: "LocalCluster (src/testing/) imports only src/testing/, src/util/ and src/kinds/",
    check: (file, to) => {
      if (!under(file, "src/testing") || !under(to, "src")) return undefined;
      return under(to, "src/testing") || under(to, "src/util") || under(to, "src/kinds") ? undefined : "LocalCluster depends on src/util/ and src/kinds/ only: it must not run on the SDK it tests";
    },
  },
  {
    name: "builders/ imports only builders/, src/client/ types, src/errors.ts and src/util/",
    check: (file, to, imp) => {
      if (!under(file, "builders")) return undefined;
      if (under(to, "builders") || to === "src/errors.ts" || under(to, "src/util")) return undefined;
      if (under(to, "src/client")) return imp.typeOnly ? undefined : "builders/ may use src/client/ for types only (import type)";
      return "builders/ may import only builders/, src/client/ types, src/errors.ts and src/util/";
    },
  },
  {
    name: "nothing in src/ except src/builder/ imports builders/, and it only through builders/index.ts",
    check: (file, to) => {
      if (!under(file, "src") || !under(to, "builders")) return undefined;
      if (!under(file, "src/builder")) return "only src/builder/ may import builders/";
      return to === "builders/index.ts" ? undefined : "src/builder/ imports the per-kind rules through builders/index.ts, their one interface";
    },
  },
  {
    name: "nothing in src/ imports examples/, test/, bench/ or scripts/",
    check: (file, to) =>
      under(file, "src") && ["examples", "test", "bench", "scripts"].some((f) => under(to, f)) ? "src/ must not depend on examples, tests, benchmarks or scripts" : undefined,
  },
  {
    name: "src/util/ imports only src/util/ and src/errors.ts",
    check: (file, to) =>
      under(file, "src/util") && !under(to, "src/util") && to !== "src/errors.ts" ? "src/util/ is shared by the SDK and LocalCluster: it depends on neither" : undefined,
  },
  {
    // src/cli/ is the `operator-runtime` command, not the SDK: `operator-runtime cluster` runs
    // LocalCluster, which it loads through the testing entry point (src/testing/index.ts) only.
    name: "the SDK (src/ outside src/testing/ and src/cli/) never imports LocalCluster (src/testing/); src/cli/ only through src/testing/index.ts",
    check: (file, to) => {
      if (!under(file, "src") || under(file, "src/testing") || !under(to, "src/testing")) return undefined;
      if (under(file, "src/cli")) return to === "src/testing/index.ts" ? undefined : "src/cli/ may load LocalCluster only through the testing entry point, src/testing/index.ts";
      return "the SDK must not pull in LocalCluster";
    },
  },
];

/** Every broken arrow among `files`, as `file:line → target: why`. */
function violations(files: readonly { path: string; source: string }[]): string[] {
  const found: string[] = [];
  for (const { path, source } of files) {
    for (const imp of importsOf(source)) {
      const to = target(path, imp.specifier);
      if (to === undefined) continue;
      for (const rule of RULES) {
        const why = rule.check(path, to, imp);
        if (why) found.push(`${path}:${imp.line} → ${to}: ${why}`);
      }
    }
  }
  return found;
}

const sources = [...tsFiles("src"), ...tsFiles("builders")].map((path) => ({ path, source: readFileSync(join(ROOT, path), "utf8") }));

describe("module dependencies point one way", () => {
  it("every import of src/ and builders/ follows the arrows", () => {
    assert.ok(sources.length > 100, `found only ${sources.length} files`);
    assert.deepEqual(violations(sources), []);
  });

  it("the imports read are the real ones (a sample that must be there)", () => {
    const builder = sources.find((s) => s.path === "src/builder/builder.ts")!;
    assert.ok(importsOf(builder.source).some((i) => i.specifier === "../../builders/index.ts"));
    const cluster = sources.find((s) => s.path === "src/testing/local-cluster.ts")!;
    assert.ok(importsOf(cluster.source).some((i) => i.specifier === "./simulator.ts"), "the dynamic import of the simulator");
  });

  for (const [bad, file, source] of [
    ["a builder importing a src/client value", "builders/x.ts", 'import { ResourceClient } from "../src/client/resource-client.ts";'],
    ["a builder importing the cache", "builders/x.ts", 'import type { Cache } from "../src/cache/cache.ts";'],
    ["the controller importing builders/", "src/controller/x.ts", 'export { deploymentRules } from "../../builders/index.ts";'],
    ["src/ importing a test helper dynamically", "src/events/x.ts", 'const w = await import("../../test/support/wait.ts");'],
    ["src/ importing an example over several lines", "src/x.ts", 'import {\n  dataApp,\n} from "../examples/dataapp/dataapp.ts";'],
    ["src/util/ importing the client", "src/util/x.ts", 'import type { KubeObject } from "../client/types.ts";'],
    ["the SDK importing LocalCluster", "src/cache/x.ts", 'import { LocalCluster } from "../testing/local-cluster.ts";'],
    ["the CLI importing LocalCluster past the testing entry point", "src/cli/x.ts", 'const { LocalCluster } = await import("../testing/local-cluster.ts");'],
    ["the SDK importing the testing entry point", "src/cache/x.ts", 'import { LocalCluster } from "../testing/index.ts";'],
    ["the cache importing the manager (a Runnable type)", "src/cache/x.ts", 'import type { Runnable } from "../manager/runnable.ts";'],
    ["the controller importing the Builder", "src/controller/x.ts", 'import { Builder } from "../builder/builder.ts";'],
    ["sharding importing the manager", "src/sharding/x.ts", 'import { Manager } from "../manager/manager.ts";'],
    ["the client importing the cache", "src/client/x.ts", 'import type { Cache } from "../cache/cache.ts";'],
    ["util importing the logger (a higher layer)", "src/util/x.ts", 'import type { Logger } from "../log/logger.ts";'],
    ["rbac importing lease (same layer)", "src/rbac/x.ts", 'import { LeaderElector } from "../lease/leader-election.ts";'],
    ["the Builder importing the CLI", "src/builder/x.ts", 'import { main } from "../cli/main.ts";'],
    ["LocalCluster importing the SDK's client", "src/testing/x.ts", 'import { ResourceClient } from "../client/resource-client.ts";'],
    ["the Builder importing one per-kind file past builders/index.ts", "src/builder/x.ts", 'import type { KindRules } from "../../builders/kind-rules.ts";'],
  ] as const) {
    it(`catches ${bad}`, () => {
      assert.ok(violations([{ path: file, source }]).length >= 1);
    });
  }

  it("every folder and top-level file of src/ has a layer (LocalCluster, src/testing/, has its own rule)", () => {
    const unplaced = readdirSync(join(ROOT, "src"))
      .map((name) => `src/${name}`)
      .filter((path) => path !== "src/testing" && !LAYERS.some((l) => l.includes(path)));
    assert.deepEqual(unplaced, [], "add each to LAYERS (and ARCHITECTURE.md), or an import into it is never checked");
    assert.equal(unitOf("src/store/up.ts"), undefined, "a folder outside LAYERS is not a unit: the test above is what catches it");
  });

  it("ARCHITECTURE.md lists the same layers, in the same order", () => {
    const text = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
    const block = text.slice(text.indexOf("## Layers"));
    const listed = [...block.matchAll(/^\s*(\d+)\s+(.+)$/gm)].map((m) => m[2]!.replace(/\(.*\)/, "").trim().split(/\s+/).map((u) => u.replace(/\/$/, "")));
    assert.deepEqual(listed, LAYERS.map((l) => [...l]));
  });

  it("allows what the arrows allow", () => {
    const fine = [
      { path: "builders/x.ts", source: 'import type { KubeObject } from "../src/client/types.ts";\nimport { BuilderValidationError } from "../src/errors.ts";\nimport { parseLabelSelector } from "../src/util/label-selector.ts";\nimport { at } from "./json.ts";' },
      { path: "src/builder/x.ts", source: 'import { configMapRules } from "../../builders/index.ts";' },
      { path: "src/testing/x.ts", source: 'import type { OwnerReference } from "../kinds/kube-object.ts";\nimport { RequestLog } from "../util/request-log.ts";' },
      { path: "src/util/x.ts", source: 'import { LRUCache } from "lru-cache";\nimport { OperatorRuntimeError } from "../errors.ts";' },
      { path: "src/cli/x.ts", source: 'const { LocalCluster } = await import("../testing/index.ts");' },
      { path: "src/builder/x.ts", source: 'import { Controller } from "../controller/controller.ts";\nimport { Cache } from "../cache/cache.ts";\nimport { OperatorRuntimeError } from "../errors.ts";' },
      { path: "src/sharding/x.ts", source: 'import { LeaderElector } from "../lease/leader-election.ts";\nimport { SharedInformer } from "../cache/informer.ts";' },
      { path: "src/entries/x.ts", source: 'export * from "../cache/index.ts";' },
    ];
    assert.deepEqual(violations(fine), []);
  });
});

describe("importsOf", () => {
  it("reads static, type-only, re-export, side-effect and dynamic imports with their lines", () => {
    const source = [
      'import { a } from "./a.ts";',
      'import type { B } from "./b.ts";',
      'export * from "./c.ts";',
      'export type { D } from "./d.ts";',
      'import "./e.ts";',
      'const f = await import("./f.ts");',
      'export const g = "./not-an-import.ts";',
    ].join("\n");
    assert.deepEqual(importsOf(source), [
      { specifier: "./a.ts", typeOnly: false, line: 1 },
      { specifier: "./b.ts", typeOnly: true, line: 2 },
      { specifier: "./c.ts", typeOnly: false, line: 3 },
      { specifier: "./d.ts", typeOnly: true, line: 4 },
      { specifier: "./e.ts", typeOnly: false, line: 5 },
      { specifier: "./f.ts", typeOnly: false, line: 6 },
    ]);
  });

  it("ignores imports in comments, TSDoc examples and template literals", () => {
    const source = [
      "/**",
      " * @example",
      " * ```ts",
      ' * import { kindRulesFor } from "./builders/index.ts";',
      " * ```",
      " */",
      '// import { x } from "./x.ts";',
      'const generated = `',
      'import { y } from "./y.ts";',
      '${"nested"}',
      'import { z } from "./z.ts";',
      '`;',
      'const url = "https://example.com"; import { real } from "./real.ts";',
      'const re = /["\'`]\\/\\//g; import { after } from "./after-regex.ts";',
    ].join("\n");
    assert.deepEqual(importsOf(source).map((i) => i.specifier), ["./real.ts", "./after-regex.ts"]);
  });
});
