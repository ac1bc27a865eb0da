import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { waitFor, within } from "../support/wait.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exit };
}

describe("command-line entry points", () => {
  it("npm run cluster: prints port and kubeconfig, serves client-node, stops cleanly on SIGINT", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cluster-script-"));
    const kc = join(dir, "kubeconfig");
    const p = run(["scripts/cluster.ts", "--kubeconfig", kc]);
    try {
      await waitFor(() => p.output().includes("kubeconfig:"), "startup banner", 15_000);
      assert.match(p.output(), /listening on http:\/\/127\.0\.0\.1:\d+ \(port \d+\)/);
      const config = new KubeConfig();
      config.loadFromFile(kc);
      const namespaces = await config.makeApiClient(CoreV1Api).listNamespace();
      assert.ok(namespaces.items.some((n) => n.metadata?.name === "kube-system"));
      p.child.kill("SIGINT");
      assert.equal(await within(p.exit, "the cluster script to exit after SIGINT", 15_000), 0, p.output());
    } finally {
      p.child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("npm run demo -- --once: reconciles a DataApp three times and prints results and events", async () => {
    const p = run(["examples/demo.ts", "--once"]);
    let code: number | null;
    try {
      code = await within(p.exit, "the demo to finish", 30_000);
    } finally {
      p.child.kill("SIGKILL");
    }
    const out = p.output();
    assert.equal(code, 0, out);
    assert.match(out, /1st reconcile \(create\): ok, 4 write request\(s\)/);
    assert.match(out, /2nd reconcile \(nothing changed\): ok, 0 write request\(s\)/);
    assert.match(out, /3rd reconcile \(config changed: threads=8\): ok, 2 write request\(s\)\n\s+updated\s+ConfigMap\/orders-config/);
    assert.match(out, /updated\s+StatefulSet\/orders/);
    assert.match(out, /Normal\s+Created\s+Created StatefulSet\/demo\/orders/);
    assert.match(out, /kubectl --kubeconfig \S+ -n demo get/);
  });
});
