import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const script = fileURLToPath(new URL("../fixtures/standby-process.ts", import.meta.url));
const PROCESS_MS = 15_000;

function launch(kubeconfig: string, identity: string, lease: string) {
  const child = spawn(process.execPath, [script, kubeconfig, identity, lease], { stdio: ["ignore", "pipe", "pipe"] });
  const events: string[] = [];
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => {
    out += d;
    let i: number;
    while ((i = out.indexOf("\n")) >= 0) {
      events.push((JSON.parse(out.slice(0, i)) as { event: string }).event);
      out = out.slice(i + 1);
    }
  });
  child.stderr.on("data", (d) => (err += d));
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve((exited = code))));
  return { child, events, exit, exited: () => exited, stderr: () => err };
}

describe("a Manager process with leader election and no health server", () => {
  let cluster: LocalCluster;
  let kubeconfig: string;

  before(async () => {
    cluster = await LocalCluster.start();
    kubeconfig = cluster.kubeconfigPath;
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
  });

  it("stays alive as a standby while another holder keeps the Lease, and exits 0 on SIGTERM", async () => {
    const renewTime = new Date().toISOString().replace("Z", "000Z");
    await raw(cluster.url, "POST", "/apis/coordination.k8s.io/v1/namespaces/default/leases", {
      apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "standby-lease" },
      spec: { holderIdentity: "someone-else", leaseDurationSeconds: 3600, acquireTime: renewTime, renewTime, leaseTransitions: 0 },
    });
    const p = launch(kubeconfig, "standby", "standby-lease");
    try {
      // Retries come every 200 ms; a process kept alive by nothing dies after its first GET.
      await waitFor(() => p.exited() !== undefined || cluster.requests.count({ verb: "get", resource: "leases", name: "standby-lease" }) >= 5, "five Lease GETs", PROCESS_MS);
      assert.equal(p.exited(), undefined, `the standby exited early: ${p.stderr()}`);
      assert.deepEqual(p.events, [], "neither leading nor lost");
      p.child.kill("SIGTERM");
      assert.equal(await within(p.exit, "the standby to exit", PROCESS_MS), 0, p.stderr());
      assert.deepEqual(p.events, ["exit"]);
    } finally {
      p.child.kill("SIGKILL");
    }
  });

  it("does not report lost leadership when a leader is stopped by SIGTERM", async () => {
    const p = launch(kubeconfig, "leader", "leader-lease");
    try {
      await waitFor(() => p.events.includes("leading") || p.exited() !== undefined, "leading", PROCESS_MS);
      assert.deepEqual(p.events, ["leading"], p.stderr());
      p.child.kill("SIGTERM");
      assert.equal(await within(p.exit, "the leader to exit", PROCESS_MS), 0, p.stderr());
      assert.deepEqual(p.events, ["leading", "exit"], "the Manager's lost stays pending");
      assert.doesNotMatch(p.stderr(), /leadership lost/);
      assert.match(p.stderr(), /released the lease/);
    } finally {
      p.child.kill("SIGKILL");
    }
  });
});
