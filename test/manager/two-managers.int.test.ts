import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor } from "../support/wait.ts";

const script = fileURLToPath(new URL("../fixtures/operator-process.ts", import.meta.url));
const LEASE_MS = 2000;
const RENEW_MS = 1200;
const RETRY_MS = 200;

interface Proc {
  child: ChildProcess;
  events: { event: string; identity: string; t: number; [k: string]: unknown }[];
  exit: Promise<number | null>;
  stderr: () => string;
}

function launch(kubeconfig: string, identity: string): Proc {
  const child = spawn(process.execPath, [script, kubeconfig, identity, String(LEASE_MS), String(RENEW_MS), String(RETRY_MS)], { stdio: ["ignore", "pipe", "pipe"] });
  const events: Proc["events"] = [];
  let buf = "";
  let err = "";
  child.stdout!.on("data", (d) => {
    buf += d;
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      events.push(JSON.parse(buf.slice(0, i)));
      buf = buf.slice(i + 1);
    }
  });
  child.stderr!.on("data", (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, events, exit, stderr: () => err };
}

const has = (p: Proc, event: string, key?: string) => p.events.some((e) => e.event === event && (key === undefined || e.key === key));

describe("two Manager processes with leader election against one LocalCluster", () => {
  let cluster: LocalCluster;
  const procs: Proc[] = [];
  const cm = (name: string, annotations: Record<string, string> = {}) =>
    raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name, labels: { watch: "me" }, annotations } });
  const annotation = async (name: string) => (await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps/${name}`)).body.metadata.annotations?.["reconciled-by"];
  const lease = async () => (await raw(cluster.url, "GET", "/apis/coordination.k8s.io/v1/namespaces/default/leases/test-operator")).body;

  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(async () => {
    for (const p of procs) p.child.kill("SIGKILL");
    await cluster.stop();
  });

  it("exactly one reconciles; SIGKILL of the leader hands over within lease duration + retry period", async () => {
    const a = launch(cluster.kubeconfigPath, "alpha");
    procs.push(a);
    await waitFor(() => has(a, "leading"), "alpha leads", 15_000);
    const b = launch(cluster.kubeconfigPath, "beta");
    procs.push(b);
    await waitFor(() => has(b, "started"), "beta started", 15_000);
    await cm("one");
    await cm("two");
    await waitFor(async () => (await annotation("one")) === "alpha" && (await annotation("two")) === "alpha", "alpha reconciled both");
    assert.equal(has(b, "reconcile-start"), false, "the standby never reconciles");
    assert.equal(has(b, "leading"), false);

    const killedAt = Date.now();
    a.child.kill("SIGKILL");
    await a.exit;
    await waitFor(() => has(b, "leading"), "beta takes over", 15_000);
    const tookOver = b.events.find((e) => e.event === "leading")!.t - killedAt;
    assert.ok(tookOver <= LEASE_MS + RETRY_MS + 1000, `took over after ${tookOver} ms (lease ${LEASE_MS} + retry ${RETRY_MS}, 1 s scheduling slack)`);
    assert.equal((await lease()).spec.holderIdentity, "beta");
    await cm("three");
    await waitFor(async () => (await annotation("three")) === "beta", "beta reconciles after takeover");
  });

  it("SIGTERM drains the running reconcile, releases the lease at once and exits 0", async () => {
    const b = procs[1]!;
    const c = launch(cluster.kubeconfigPath, "gamma");
    procs.push(c);
    await waitFor(() => has(c, "started"), "gamma started", 15_000);
    await cm("slow", { "slow-ms": "400" });
    await waitFor(() => has(b, "reconcile-start", "default/slow"), "slow reconcile running");
    const termAt = Date.now();
    b.child.kill("SIGTERM");
    assert.equal(await b.exit, 0, b.stderr());
    assert.ok(has(b, "reconciled", "default/slow"), "the in-flight reconcile finished before exit");
    assert.equal(await annotation("slow"), "beta");
    await waitFor(() => has(c, "leading"), "gamma takes over", 15_000);
    const handover = c.events.find((e) => e.event === "leading")!.t - termAt;
    assert.ok(handover < LEASE_MS, `released lease: gamma led ${handover} ms after SIGTERM, before a lease expiry (${LEASE_MS} ms) could`);
    assert.equal((await lease()).spec.holderIdentity, "gamma");
    c.child.kill("SIGTERM");
    assert.equal(await c.exit, 0, `${JSON.stringify(c.events)}\n${c.stderr()}`);
  });
});
