/**
 * The `operator-runtime` command line, run for real from the sources (`node src/cli/main.ts …`):
 * help, version, bad command lines (exit 2, message and usage on stderr) and `cluster` serving
 * client-node until SIGINT.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { raw, waitFor, within } from "../support/wait.ts";
import { cli, complete } from "../support/cli.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const version = (JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { version: string }).version;

describe("operator-runtime", () => {
  for (const args of [["--help"], ["-h"], ["help"]]) {
    it(`${args.join(" ")} prints the usage with its commands and exits 0`, async () => {
      const r = await complete(args);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^usage: operator-runtime <command>/);
      assert.match(r.stdout, /^ {2}cluster +run a standalone LocalCluster/m);
      assert.equal(r.stderr, "");
    });
  }

  it("--version prints the package's version", async () => {
    const r = await complete(["--version"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
  });

  for (const [args, message] of [
    [[], /no command given/],
    [["nosuch"], /unknown command "nosuch"/],
    [["--nosuch"], /unknown option "--nosuch"/],
  ] as const) {
    it(`refuses ${args.length ? args.join(" ") : "no command"} on stderr with the usage, exit 2`, async () => {
      const r = await complete([...args]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: operator-runtime <command>/);
      assert.equal(r.stdout, "");
    });
  }

  it("cluster --help prints the command's options and exits 0", async () => {
    const r = await complete(["cluster", "--help"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^usage: operator-runtime cluster \[--port N\] \[--simulate\] \[--authorization\] \[--no-sharded-list-watch\] \[--kubeconfig PATH\]/);
    assert.ok(r.stdout.includes("  --no-sharded-list-watch\n"), "--no-sharded-list-watch");
    for (const option of ["--port N", "--simulate", "--authorization", "--kubeconfig PATH"]) assert.ok(r.stdout.includes(`  ${option} `), option);
  });

  for (const [args, message] of [
    [["--port", "abc"], /--port must be an integer from 0 to 65535, got "abc"/],
    [["--port", "65536"], /--port must be an integer from 0 to 65535, got "65536"/],
    [["--port", "-1"], /--port/],
    [["--port", "1.5"], /--port must be an integer from 0 to 65535, got "1\.5"/],
    [["--port"], /--port/],
    [["--nosuch"], /'--nosuch'/],
    [["extra"], /'extra'/],
  ] as const) {
    it(`cluster ${args.join(" ")}: names the problem and the cluster usage on stderr, exit 2`, async () => {
      const r = await complete(["cluster", ...args]);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: operator-runtime cluster/);
      assert.equal(r.stdout, "");
    });
  }

  it("cluster: writes the kubeconfig, serves client-node through it, and exits 0 on SIGINT", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-cluster-"));
    const kc = join(dir, "nested", "kubeconfig");
    const p = cli(["cluster", "--kubeconfig", kc, "--port", "0"]);
    try {
      await waitFor(() => p.stdout().includes("Ctrl-C stops it."), "the cluster banner", 15_000).catch((err: Error) => {
        throw new Error(`${err.message}\n${p.stdout()}${p.stderr()}`);
      });
      const url = /listening on (http:\/\/127\.0\.0\.1:(\d+)) \(port (\d+)\)/.exec(p.stdout());
      assert.ok(url, p.stdout());
      assert.equal(url[2], url[3]);
      assert.match(p.stdout(), new RegExp(`^kubeconfig: ${kc}$`, "m"));
      assert.match(p.stdout(), new RegExp(`^try: kubectl --kubeconfig ${kc} get namespaces$`, "m"));
      const config = new KubeConfig();
      config.loadFromFile(kc);
      assert.equal(config.getCurrentCluster()?.server, url[1]);
      const namespaces = await config.makeApiClient(CoreV1Api).listNamespace();
      assert.ok(namespaces.items.some((n) => n.metadata?.name === "default"));
      p.child.kill("SIGINT");
      assert.equal(await within(p.exit, "the cluster to exit after SIGINT", 15_000), 0, p.stdout() + p.stderr());
      assert.match(p.stdout(), /SIGINT: stopping LocalCluster/);
    } finally {
      p.child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("cluster --no-sharded-list-watch: lists ignore shardSelector (no shardInfo echo), as a server before v1.36", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-cluster-"));
    const kc = join(dir, "kubeconfig");
    const selector = encodeURIComponent("shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000001')");
    for (const [flags, echoed] of [[["--no-sharded-list-watch"], false], [[], true]] as const) {
      const p = cli(["cluster", "--kubeconfig", kc, ...flags]);
      try {
        await waitFor(() => p.stdout().includes("Ctrl-C stops it."), "the cluster banner", 15_000);
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(p.stdout())![1]!;
        assert.equal(/sharded list and watch \(KEP-5866\): off/.test(p.stdout()), !echoed);
        const r = await raw(url, "GET", `/api/v1/namespaces?shardSelector=${selector}`);
        assert.equal(r.code, 200);
        assert.equal(r.body.metadata.shardInfo !== undefined, echoed, JSON.stringify(r.body.metadata));
        assert.equal(r.body.items.length > 0, !echoed, "without the feature every namespace comes back");
        p.child.kill("SIGINT");
        assert.equal(await within(p.exit, "the cluster to exit after SIGINT", 15_000), 0);
      } finally {
        p.child.kill("SIGKILL");
      }
    }
    await rm(dir, { recursive: true, force: true });
  });

  it("cluster --authorization: serves HTTPS with RBAC, the kubeconfig being the admin's", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cli-cluster-"));
    const kc = join(dir, "kubeconfig");
    const p = cli(["cluster", "--kubeconfig", kc, "--authorization"]);
    try {
      await waitFor(() => p.stdout().includes("Ctrl-C stops it."), "the cluster banner", 15_000).catch((err: Error) => {
        throw new Error(`${err.message}\n${p.stdout()}${p.stderr()}`);
      });
      const url = /listening on (https:\/\/127\.0\.0\.1:\d+) /.exec(p.stdout());
      assert.ok(url, p.stdout());
      assert.match(p.stdout(), /^authorization: bearer tokens and RBAC; the kubeconfig is the admin \(group system:masters\)$/m);
      const config = new KubeConfig();
      config.loadFromFile(kc);
      assert.equal(config.getCurrentCluster()?.server, url[1]);
      const namespaces = await config.makeApiClient(CoreV1Api).listNamespace();
      assert.ok(namespaces.items.some((n) => n.metadata?.name === "default"));
      const anonymous = new KubeConfig();
      anonymous.loadFromOptions({ ...config, users: [{ name: "nobody" }], contexts: [{ name: "c", cluster: config.getCurrentCluster()!.name, user: "nobody" }], currentContext: "c" });
      const denied = await anonymous.makeApiClient(CoreV1Api).listNamespace().then(() => 0, (e: { code?: number }) => e.code);
      assert.equal(denied, 401);
      p.child.kill("SIGINT");
      assert.equal(await within(p.exit, "the cluster to exit after SIGINT", 15_000), 0, p.stdout() + p.stderr());
    } finally {
      p.child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
