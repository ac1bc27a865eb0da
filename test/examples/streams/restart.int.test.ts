/**
 * Restart safety with real processes: the operator runs as a child process against the test's
 * LocalCluster and is SIGKILLed at chosen points — mid-submission, mid-scale-down and
 * mid-relaunch — held there deterministically by injected faults (the request log says when
 * the process reached them). A new process then converges with exactly the expected PEs, pods
 * and ConfigMaps, none left terminating, and every launch counted once.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Pod } from "../../../src/index.ts";
import type { ResourceClient } from "../../../src/index.ts";
import type { LocalCluster } from "../../../src/testing/index.ts";
import { Job, LAUNCH_ANNOTATION, ProcessingElement } from "../../../examples/streams/operator.ts";
import { waitFor, within } from "../../support/wait.ts";
import { childrenOf, endPod, expectedPes, parallelJob, startCluster } from "./fixtures.ts";

const script = fileURLToPath(new URL("./operator-process.ts", import.meta.url));
/** Bound on a process starting, converging or exiting. */
const PROCESS_MS = 20_000;

interface Proc {
  child: ChildProcess;
  started: Promise<void>;
  exit: Promise<number | null>;
  stderr: () => string;
}

function launch(kubeconfig: string): Proc {
  const child = spawn(process.execPath, [script, kubeconfig], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const started = new Promise<void>((resolve) => child.stdout!.on("data", (d) => {
    out += d;
    if (out.includes('"started"')) resolve();
  }));
  child.stderr!.on("data", (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, started, exit, stderr: () => err };
}

describe("streams: SIGKILL the operator and start it again", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  const procs: Proc[] = [];

  before(async () => {
    ({ cluster, client } = await startCluster());
  });
  after(async () => {
    for (const p of procs) p.child.kill("SIGKILL");
    await within(Promise.all(procs.map((p) => p.exit)), "the operator processes to exit", PROCESS_MS);
    await within(cluster.stop(), "the cluster to stop");
  });

  const start = async () => {
    const p = launch(cluster.kubeconfigPath);
    procs.push(p);
    await within(Promise.race([p.started, p.exit.then(() => { throw new Error(`the operator exited: ${p.stderr()}`); })]), "the operator to start", PROCESS_MS);
    return p;
  };
  const kill = async (p: Proc) => {
    p.child.kill("SIGKILL");
    assert.equal(await within(p.exit, "the operator to exit after SIGKILL", PROCESS_MS), null);
    assert.equal(p.child.signalCode, "SIGKILL");
  };
  const pe = (name: string) => client.get({ ...ProcessingElement, name, namespace: "default" });

  /** Waits until the job has exactly its expected PEs, pods and ConfigMaps, all running; returns them. */
  const converged = async (width: number) => {
    const want = expectedPes("crash", width);
    return waitFor(async () => {
      const c = await childrenOf(client, "crash");
      const same = JSON.stringify([c.peNames, c.podNames, c.cmNames]) === JSON.stringify([want, want, want.map((n) => `${n}-config`).sort()]);
      const settled = c.pods.every((p) => !p.metadata?.deletionTimestamp && p.status?.phase === "Running")
        && c.pes.every((p) => p.status?.phase === "Running");
      const job = await client.get({ ...Job, name: "crash", namespace: "default" });
      return same && settled && job.status?.phase === "Running" && job.status.peCount === want.length ? c : undefined;
    }, `exactly ${want.length} PEs, pods and ConfigMaps, all running`, PROCESS_MS);
  };
  const launches = (c: Awaited<ReturnType<typeof converged>>) => Object.fromEntries(c.pes.map((p) => [p.metadata!.name!, p.status?.launchCount]));

  it("mid-submission: PEs half created and a launch recorded without its pod → one PE, pod and ConfigMap each, launched once", async () => {
    const first = await start();
    // The job controller cannot create its fourth PE; the PE controller records ingest's first
    // launch but cannot create its pod.
    // A new child is created with a POST (its name in the body): the faults match it by that name.
    const peFault = cluster.inject({ verb: "create", resource: "processingelements", name: "crash-work-1", code: 503, times: Infinity });
    const podFault = cluster.inject({ verb: "create", resource: "pods", name: "crash-ingest-0", code: 503, times: Infinity });
    await client.create(parallelJob("crash", { width: 3 }));
    await waitFor(async () => peFault.hits > 0 && podFault.hits > 0 && (await pe("crash-ingest-0")).status?.launchCount === 1,
      "the operator to be held mid-submission", PROCESS_MS);
    await kill(first);
    cluster.clearFaults();
    const before = await childrenOf(client, "crash");
    assert.ok(!before.peNames.includes("crash-work-1"), "killed with a PE still missing");
    assert.ok(!before.podNames.includes("crash-ingest-0"), "killed with a launch recorded and its pod missing");

    await start();
    const c = await converged(3);
    assert.deepEqual(launches(c), Object.fromEntries(expectedPes("crash", 3).map((n) => [n, 1])), "every PE launched exactly once");
    for (const p of c.pods) assert.equal(p.metadata?.annotations?.[LAUNCH_ANNOTATION], "1");
  });

  it("mid-scale-down: one PE pruned, another not, a pod's finalizer not released → nothing left over", async () => {
    const second = procs.at(-1)!;
    const pruneFault = cluster.inject({ verb: "delete", resource: "processingelements", name: "crash-work-2", code: 503, times: Infinity });
    const releaseFault = cluster.inject({ verb: "patch", resource: "pods", name: "crash-work-1", code: 503, times: Infinity });
    await client.patch({ ...Job, name: "crash", namespace: "default" }, [{ op: "replace", path: "/spec/application/operators/2/width", value: 1 }], "json");
    await waitFor(async () => {
      const c = await childrenOf(client, "crash");
      return pruneFault.hits > 0 && releaseFault.hits > 0 && !c.peNames.includes("crash-work-1");
    }, "the operator to be held mid-scale-down", PROCESS_MS);
    await kill(second);
    cluster.clearFaults();
    const before = await childrenOf(client, "crash");
    assert.ok(before.peNames.includes("crash-work-2"), "killed with a PE still to prune");
    assert.ok(before.pods.some((p) => p.metadata?.name === "crash-work-1" && p.metadata.deletionTimestamp), "killed with a pod held by the finalizer");

    await start();
    const c = await converged(1);
    assert.deepEqual(launches(c), Object.fromEntries(expectedPes("crash", 1).map((n) => [n, 1])), "scaling relaunched nothing");
  });

  it("mid-relaunch: the next launch recorded, the failed pod not yet deleted → relaunched once, counted once", async () => {
    const third = procs.at(-1)!;
    const deleteFault = cluster.inject({ verb: "delete", resource: "pods", name: "crash-sink-0", code: 503, times: Infinity });
    await endPod(client, "crash-sink-0", "Failed");
    await waitFor(async () => deleteFault.hits > 0 && (await pe("crash-sink-0")).status?.launchCount === 2, "the operator to be held mid-relaunch", PROCESS_MS);
    await kill(third);
    cluster.clearFaults();
    assert.equal((await client.get({ ...Pod, name: "crash-sink-0", namespace: "default" })).status?.phase, "Failed", "killed with the failed pod still there");

    await start();
    const c = await converged(1);
    assert.deepEqual(launches(c), { "crash-ingest-0": 1, "crash-sink-0": 2, "crash-work-0": 1 }, "the relaunch counted once");
    assert.equal(c.pods.find((p) => p.metadata?.name === "crash-sink-0")?.metadata?.annotations?.[LAUNCH_ANNOTATION], "2");
  });
});
