import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const script = fileURLToPath(new URL("../fixtures/operator-process.ts", import.meta.url));
// A renew deadline of several seconds: on a loaded 2-core CI machine a renewal can take over a
// second, and a leader that misses its deadline stops leading without a release to observe.
const LEASE_MS = 4000;
const RENEW_MS = 3000;
const RETRY_MS = 250;
/** Bound on a process starting, taking over or exiting (a lease duration is 4 s). */
const PROCESS_MS = 15_000;

interface Proc {
  child: ChildProcess;
  events: { event: string; identity: string; [k: string]: unknown }[];
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

/**
 * Watches the Lease and keeps every holderIdentity it has had, in order (repeats folded): a
 * release shows as "" between two holders, a takeover after expiry as one holder straight after
 * the other.
 */
async function watchHolders(url: string): Promise<{ holders: string[]; stop: () => Promise<void> }> {
  const controller = new AbortController();
  const res = await within(
    fetch(`${url}/apis/coordination.k8s.io/v1/namespaces/default/leases?watch=true&fieldSelector=metadata.name%3Dtest-operator`, { signal: controller.signal }),
    "the Lease watch's response headers",
  );
  const holders: string[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of res.body!) {
      buf += decoder.decode(chunk, { stream: true });
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        const holder: string = JSON.parse(buf.slice(0, i)).object?.spec?.holderIdentity ?? "";
        buf = buf.slice(i + 1);
        if (holders.at(-1) !== holder) holders.push(holder);
      }
    }
  })().catch(() => undefined); // aborted by stop()
  return {
    holders,
    stop: async () => {
      controller.abort();
      await within(reading, "the Lease watch to end");
    },
  };
}

const has = (p: Proc, event: string, key?: string) => p.events.some((e) => e.event === event && (key === undefined || e.key === key));

describe("two Manager processes with leader election against one LocalCluster", () => {
  let cluster: LocalCluster;
  let lease: Awaited<ReturnType<typeof watchHolders>>;
  const procs: Proc[] = [];
  const cm = (name: string, annotations: Record<string, string> = {}) =>
    raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name, labels: { watch: "me" }, annotations } });
  const annotation = async (name: string) => (await raw(cluster.url, "GET", `/api/v1/namespaces/default/configmaps/${name}`)).body.metadata.annotations?.["reconciled-by"];
  const holder = async () => (await raw(cluster.url, "GET", "/apis/coordination.k8s.io/v1/namespaces/default/leases/test-operator")).body.spec.holderIdentity;

  before(async () => {
    cluster = await LocalCluster.start();
    lease = await watchHolders(cluster.url);
  });
  after(async () => {
    for (const p of procs) p.child.kill("SIGKILL");
    await within(Promise.all(procs.map((p) => p.exit)), "the operator processes to exit after SIGKILL", PROCESS_MS);
    await lease.stop();
    await within(cluster.stop(), "LocalCluster to stop");
  });

  it("exactly one reconciles; after a SIGKILL of the leader the standby takes the unreleased Lease over and reconciles", async () => {
    const a = launch(cluster.kubeconfigPath, "alpha");
    procs.push(a);
    await waitFor(() => has(a, "leading"), "alpha leads", PROCESS_MS);
    const b = launch(cluster.kubeconfigPath, "beta");
    procs.push(b);
    await waitFor(() => has(b, "started"), "beta started", PROCESS_MS);
    await cm("one");
    await cm("two");
    await waitFor(async () => (await annotation("one")) === "alpha" && (await annotation("two")) === "alpha", "alpha reconciled both");
    assert.equal(has(b, "reconcile-start"), false, "the standby never reconciles");
    assert.equal(has(b, "leading"), false);

    a.child.kill("SIGKILL");
    assert.equal(await within(a.exit, "alpha to exit after SIGKILL", PROCESS_MS), null);
    assert.equal(a.child.signalCode, "SIGKILL");
    await waitFor(() => has(b, "leading"), "beta takes over", PROCESS_MS);
    assert.equal(await holder(), "beta");
    await waitFor(() => lease.holders.includes("beta"), "the Lease watch to see beta");
    assert.deepEqual(lease.holders, ["alpha", "beta"], "never released: beta took alpha's Lease over once it expired");
    await cm("three");
    await waitFor(async () => (await annotation("three")) === "beta", "beta reconciles after takeover");
  });

  it("SIGTERM drains the running reconcile, releases the Lease for the standby and exits 0", async () => {
    const b = procs[1]!;
    const c = launch(cluster.kubeconfigPath, "gamma");
    procs.push(c);
    await waitFor(() => has(c, "started"), "gamma started", PROCESS_MS);
    await cm("held", { "hold-until-sigterm": "true" });
    await waitFor(() => has(b, "reconcile-start", "default/held"), "beta's reconcile of the held ConfigMap to start");
    b.child.kill("SIGTERM");
    assert.equal(await within(b.exit, "beta to exit after SIGTERM", PROCESS_MS), 0, b.stderr());
    const released = b.events.find((e) => e.event === "held-until" && e.key === "default/held");
    assert.equal(released?.by, "SIGTERM", "the reconcile was still running when SIGTERM came");
    assert.equal(released?.aborted, false, "stopping drains the running reconcile: its signal is not aborted");
    assert.ok(has(b, "reconciled", "default/held"), "the in-flight reconcile finished before exit");
    assert.equal(await annotation("held"), "beta");
    await waitFor(() => has(c, "leading"), "gamma takes over", PROCESS_MS);
    assert.equal(await holder(), "gamma");
    await waitFor(() => lease.holders.includes("gamma"), "the Lease watch to see gamma");
    assert.deepEqual(lease.holders, ["alpha", "beta", "", "gamma"], `beta released the Lease; gamma took it. beta's log:\n${b.stderr()}`);
    c.child.kill("SIGTERM");
    assert.equal(await within(c.exit, "gamma to exit after SIGTERM", PROCESS_MS), 0, `${JSON.stringify(c.events)}\n${c.stderr()}`);
  });
});
