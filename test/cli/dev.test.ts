/**
 * `operator-runtime dev <operator-module>`, run for real from the sources: the module's Manager
 * on a LocalCluster (or an existing cluster) with the dashboard on, its URL on one stdout line,
 * its CRDs installed, exit 0 on SIGINT; bad command lines (exit 2) and failures (exit 1).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ApiextensionsV1Api, CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { waitFor, within } from "../support/wait.ts";
import { REPO, cli, complete } from "../support/cli.ts";
import { parseDevArgs } from "../../src/cli/dev.ts";
import { UsageError } from "../../src/cli/usage-error.ts";

const FIXTURES = join(REPO, "test/cli/fixtures");
const OPERATOR = join(FIXTURES, "dev-operator.ts");
const STARTUP_MS = 30_000;

type Cli = ReturnType<typeof cli>;

/** Resolves with the match once a whole stdout line matches `re`; rejects if the CLI exits first. */
function line(p: Cli, re: RegExp, what: string): Promise<RegExpExecArray> {
  const found = new Promise<RegExpExecArray>((resolve, reject) => {
    // cli() appends each chunk in its own (earlier) listener: p.stdout() holds it already.
    const check = () => {
      const m = new RegExp(`^${re.source}\\n`, "m").exec(p.stdout());
      if (!m) return;
      p.child.stdout.off("data", check);
      resolve(m);
    };
    p.child.stdout.on("data", check);
    check();
    void p.exit.then((code) => reject(new Error(`the CLI exited (${code}) before printing ${what}\n${p.stdout()}${p.stderr()}`)));
  });
  return within(found, what, STARTUP_MS).catch((err: Error) => {
    throw new Error(`${err.message}\n${p.stdout()}${p.stderr()}`);
  });
}

/** GET `<dashboard>api/state`: the controllers' names. */
async function controllerNames(dashboard: string): Promise<string[]> {
  const res = await fetch(new URL("api/state", dashboard));
  assert.equal(res.status, 200);
  return ((await res.json()) as { controllers: { name: string }[] }).controllers.map((c) => c.name);
}

async function interrupt(p: Cli): Promise<number | null> {
  p.child.kill("SIGINT");
  return within(p.exit, "the CLI to exit after SIGINT", STARTUP_MS);
}

describe("operator-runtime dev", () => {
  it("runs the module's Manager on LocalCluster with its CRDs and the dashboard, and exits 0 on SIGINT", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-dev-"));
    const p = cli(["dev", OPERATOR, "--dashboard-port", "0"], { cwd: dir });
    try {
      const [, url] = await line(p, /dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/, "the dashboard line");
      assert.equal(p.stdout().match(/^dashboard: /gm)?.length, 1, p.stdout());
      assert.deepEqual(await controllerNames(url!), ["widgets"]);
      const kubeconfig = join(dir, ".tmp/dev-kubeconfig");
      assert.match(p.stdout(), new RegExp(`^kubeconfig: ${kubeconfig}$`, "m"));
      assert.match(p.stdout(), new RegExp(`^try: export KUBECONFIG=${kubeconfig}; kubectl get namespaces$`, "m"));
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfig);
      const crd = await kc.makeApiClient(ApiextensionsV1Api).readCustomResourceDefinition({ name: "widgets.example.com" });
      assert.equal(crd.spec.names.kind, "Widget");
      // The Lease's namespace, which LocalCluster lacks, was made for the Manager to lead.
      await kc.makeApiClient(CoreV1Api).readNamespace({ name: "widget-system" });
      assert.equal(await interrupt(p), 0, p.stdout() + p.stderr());
      assert.match(p.stdout(), /SIGINT: stopping the Manager and LocalCluster/);
    } finally {
      p.child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("--kubeconfig --install-crds: runs against that cluster, its CRDs applied, no LocalCluster", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-dev-"));
    const cluster = await LocalCluster.start({ kubeconfigPath: join(dir, "kubeconfig") });
    // On an existing cluster the Lease's namespace is the user's to make: dev only warns.
    await cluster.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: "widget-system" } } });
    const p = cli(["dev", "--kubeconfig", cluster.kubeconfigPath, "--install-crds", "--dashboard-port", "0", OPERATOR], { cwd: dir });
    try {
      const [, url] = await line(p, /dashboard: (\S+)/, "the dashboard line");
      assert.deepEqual(await controllerNames(url!), ["widgets"]);
      assert.match(p.stdout(), new RegExp(`^cluster: ${cluster.url} \\(context \\S+, from ${cluster.kubeconfigPath}\\)$`, "m"));
      assert.doesNotMatch(p.stdout(), /LocalCluster listening/);
      assert.doesNotMatch(p.stderr(), /warning: namespace/);
      assert.ok(cluster.peek({ group: "apiextensions.k8s.io", plural: "customresourcedefinitions" }, "", "widgets.example.com"));
      await waitFor(() => cluster.requests.all().some((r) => r.resource === "widgets" && r.verb === "watch"),
        "the Manager to watch Widgets on this cluster", STARTUP_MS);
      assert.equal(await interrupt(p), 0, p.stdout() + p.stderr());
    } finally {
      p.child.kill("SIGKILL");
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps the dashboard options of the module's Manager (its port) when --dashboard-port is not given", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-dev-"));
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    process.env.DEV_FIXTURE_DASHBOARD_PORT = String(port); // inherited by the CLI, read by the module
    const p = cli(["dev", join(FIXTURES, "dev-dashboard-operator.ts")], { cwd: dir });
    try {
      const [, url] = await line(p, /dashboard: (\S+)/, "the dashboard line");
      assert.equal(new URL(url!).port, String(port));
      assert.deepEqual(await controllerNames(url!), ["configmaps"]);
      assert.equal(await interrupt(p), 0, p.stdout() + p.stderr());
    } finally {
      delete process.env.DEV_FIXTURE_DASHBOARD_PORT;
      p.child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a taken --dashboard-port: says so and suggests --dashboard-port 0, exit 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-dev-"));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = await complete(["dev", OPERATOR, "--dashboard-port", String(port)], { cwd: dir, timeoutMs: STARTUP_MS });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, new RegExp(`operator-runtime: the dashboard's port ${port} is in use .*--dashboard-port 0 for a free port`));
      assert.doesNotMatch(r.stdout, /^dashboard: /m);
    } finally {
      taken.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a module whose Manager does not load its KubeConfig from KUBECONFIG: says how to fix it, exit 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-dev-"));
    try {
      const r = await complete(["dev", join(FIXTURES, "no-election-operator.ts"), "--dashboard-port", "0"], { cwd: dir, timeoutMs: STARTUP_MS });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /its Manager cannot reach the cluster .*load its KubeConfig with kubeConfig\.loadFromDefault\(\)/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a module without a Manager: the loader's message alone, exit 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-dev-"));
    try {
      const r = await complete(["dev", join(FIXTURES, "no-manager.ts"), "--dashboard-port", "0"], { cwd: dir, timeoutMs: STARTUP_MS });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /^operator-runtime: .*no-manager\.ts: its `manager` export is not a Manager/m);
      assert.doesNotMatch(r.stderr, /usage:/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("--help prints the command's usage, which says how the Manager finds the cluster", async () => {
    const r = await complete(["dev", "--help"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^usage: operator-runtime dev <operator-module>/);
    assert.match(r.stdout, /KUBECONFIG is set to the cluster's kubeconfig before the module is imported/);
    for (const option of ["--dashboard-port N", "--kubeconfig PATH", "--cluster existing", "--install-crds"]) assert.ok(r.stdout.includes(`  ${option} `), option);
  });

  for (const [args, message] of [
    [[], /dev needs the operator module: operator-runtime dev \.\/operator\.ts/],
    [[OPERATOR, "--dashboard-port", "abc"], /--dashboard-port must be an integer from 0 to 65535 \(0: a free port\), got "abc"/],
  ] as const) {
    it(`dev ${args.map((a) => a.replace(FIXTURES, "…")).join(" ")}: names the problem with the dev usage on stderr, exit 2`, async () => {
      const r = await complete(["dev", ...args]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: operator-runtime dev/);
      assert.equal(r.stdout, "");
    });
  }

  it("parseDevArgs: refuses each bad command line with a UsageError naming the argument and the fix", () => {
    for (const [args, message] of [
      [["nosuch.ts"], /operator module "nosuch\.ts": no such file \(give the path of the module that exports your Manager\)/],
      [[OPERATOR, "other.ts"], /dev takes one operator module, got also "other\.ts"/],
      [[OPERATOR, "--dashboard-port", "65536"], /--dashboard-port must be an integer from 0 to 65535/],
      [[OPERATOR, "--dashboard-port", "-1"], /--dashboard-port/],
      [[OPERATOR, "--dashboard-port", "1.5"], /--dashboard-port must be an integer from 0 to 65535 \(0: a free port\), got "1\.5"/],
      [[OPERATOR, "--cluster", "kind"], /--cluster must be "local" .* or "existing" .*, got "kind"/],
      [[OPERATOR, "--cluster", "local", "--kubeconfig", OPERATOR], /--kubeconfig names an existing cluster, --cluster local starts one: drop one of them/],
      [[OPERATOR, "--kubeconfig", "nosuch-kubeconfig"], /--kubeconfig "nosuch-kubeconfig": no such file/],
      [[OPERATOR, "--nosuch"], /'--nosuch'/],
    ] as const) {
      assert.throws(() => parseDevArgs(args), (err: Error) => err instanceof UsageError && message.test(err.message), args.join(" "));
    }
  });

  it("parseDevArgs: LocalCluster by default, an existing cluster with --kubeconfig or --cluster existing", () => {
    assert.deepEqual(parseDevArgs([OPERATOR]), {
      module: OPERATOR, cluster: "local", installCrds: true, localKubeconfigPath: resolve(".tmp/dev-kubeconfig"),
    });
    assert.deepEqual(parseDevArgs(["--kubeconfig", OPERATOR, OPERATOR, "--dashboard-port", "0"]), {
      module: OPERATOR, dashboardPort: 0, cluster: "existing", kubeconfig: OPERATOR, installCrds: false, localKubeconfigPath: resolve(".tmp/dev-kubeconfig"),
    });
    assert.equal(parseDevArgs(["--cluster", "existing", "--install-crds", OPERATOR])?.installCrds, true);
    assert.equal(parseDevArgs([OPERATOR, "-h"]), undefined);
  });

  it("the command list names dev", async () => {
    const r = await complete(["--help"]);
    assert.match(r.stdout, /^ {2}dev +run an operator module on LocalCluster with the live dashboard$/m);
  });
});
