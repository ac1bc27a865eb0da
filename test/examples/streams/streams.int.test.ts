import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Manager, Pod } from "../../../src/index.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import type { ResourceClient } from "../../../src/index.ts";
import type { LocalCluster } from "../../../src/testing/index.ts";
import { LAUNCH_ANNOTATION, LAUNCH_FINALIZER, Job, ProcessingElement, operator } from "../../../examples/streams/operator.ts";
import { waitFor, within } from "../../support/wait.ts";
import { childrenOf, endPod, expectedPes, parallelJob, startCluster } from "./fixtures.ts";

describe("streams: Job → ProcessingElements → one pod and ConfigMap per PE", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let mgr: Manager;

  before(async () => {
    ({ cluster, client } = await startCluster());
    mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: "streams-test", healthPort: false, logger: silentLogger });
    operator.register(mgr);
    await within(mgr.start(), "the Manager to start", 15_000);
  });
  after(async () => {
    await within(mgr.stop(), "the Manager to stop", 15_000);
    await within(cluster.stop(), "the cluster to stop");
  });

  const pe = (name: string) => client.get({ ...ProcessingElement, name, namespace: "default" });
  const job = (name: string) => client.get({ ...Job, name, namespace: "default" });
  const pod = (name: string) => client.get({ ...Pod, name, namespace: "default" });
  const eventsOf = async (regarding: string) => (await client.list({ apiVersion: "events.k8s.io/v1", kind: "Event" }, { namespace: "default" })).items
    .map((e) => e as { type?: string; reason?: string; note?: string; regarding?: { name?: string } })
    .filter((e) => e.regarding?.name === regarding);

  it("submits the sample: PEs fused and created most restrictive first, each with one pod and one ConfigMap", async () => {
    cluster.requests.clear();
    await client.create(parallelJob("parallel"));
    const running = await waitFor(async () => {
      const j = await job("parallel");
      return j.status?.phase === "Running" ? j : undefined;
    }, "the Job to be Running", 10_000);
    const order = ["parallel-sink-0", "parallel-ingest-0", "parallel-work-0", "parallel-work-1", "parallel-work-2"];
    assert.deepEqual(running.status?.processingElements, order, "host isolation, then the host pool, then the rest in application order");
    assert.equal(running.status?.peCount, 5);
    assert.equal(running.status?.runningPEs, 5);
    const created = cluster.requests.filter({ verb: "create", resource: "processingelements" }).filter((r) => r.code === 201).map((r) => r.name);
    assert.deepEqual(created, order, "created in placement order, each once");

    const { pes, pods, cms, peNames, podNames, cmNames } = await childrenOf(client, "parallel");
    assert.deepEqual(peNames, expectedPes("parallel", 3));
    assert.deepEqual(podNames, peNames, "one pod per PE, named as the PE");
    assert.deepEqual(cmNames, peNames.map((n) => `${n}-config`).sort());
    for (const p of pes) {
      assert.equal(p.metadata?.ownerReferences?.[0]?.kind, "Job");
      assert.equal(p.metadata?.ownerReferences?.[0]?.controller, true);
      assert.equal(p.status?.phase, "Running");
      assert.equal(p.status?.launchCount, 1);
    }
    for (const p of pods) {
      assert.equal(p.metadata?.ownerReferences?.[0]?.kind, "ProcessingElement");
      assert.equal(p.metadata?.annotations?.[LAUNCH_ANNOTATION], "1");
      assert.deepEqual(p.metadata?.finalizers, [LAUNCH_FINALIZER]);
      assert.equal(p.spec?.restartPolicy, "Never");
    }
    const ingest = await pe("parallel-ingest-0");
    assert.deepEqual(ingest.spec.operators.map((o) => o.name), ["beacon", "format"], "the ingest partition fuses two operators");
    assert.deepEqual((await pod("parallel-ingest-0")).spec?.nodeSelector, { "streams.example.com/host-pool": "ingest" });
    assert.ok((await pod("parallel-sink-0")).spec?.affinity?.podAntiAffinity, "host isolation becomes a pod anti-affinity");
    const work1 = await pe("parallel-work-1");
    assert.deepEqual(work1.spec.operators[0]?.inputs, ["parallel-ingest-0"]);
    const sink = await pe("parallel-sink-0");
    assert.deepEqual(sink.spec.operators[0]?.inputs, ["parallel-work-0", "parallel-work-1", "parallel-work-2"], "the sink reads every channel");
    const config = cms.find((c) => c.metadata?.name === "parallel-work-1-config")!;
    assert.equal(JSON.parse(config.data!["pe.json"]!).operators[0].channel, 1);
  });

  it("relaunches a failed pod and counts it; a deleted pod too", async () => {
    await endPod(client, "parallel-work-0", "Failed");
    await waitFor(async () => {
      const p = await pe("parallel-work-0");
      return p.status?.launchCount === 2 && p.status.phase === "Running" ? p : undefined;
    }, "the failed PE to be relaunched and running", 10_000);
    const relaunched = await pod("parallel-work-0");
    assert.equal(relaunched.metadata?.annotations?.[LAUNCH_ANNOTATION], "2");
    assert.equal(relaunched.status?.phase, "Running");
    assert.equal((await pe("parallel-work-0")).status?.lastRelaunchReason, "PodFailed");

    await client.delete({ ...Pod, name: "parallel-work-1", namespace: "default" });
    await waitFor(async () => {
      const p = await pe("parallel-work-1");
      return p.status?.launchCount === 2 && p.status.phase === "Running" ? p : undefined;
    }, "the deleted pod to be relaunched", 10_000);
    assert.equal((await pe("parallel-work-1")).status?.lastRelaunchReason, "PodDeleted");
    assert.equal((await pod("parallel-work-1")).metadata?.annotations?.[LAUNCH_ANNOTATION], "2");
    assert.equal((await pe("parallel-work-2")).status?.launchCount, 1, "the other PEs were not touched");

    await waitFor(async () => (await job("parallel")).status?.phase === "Running", "the Job to be Running again");
    const relaunched1 = (await eventsOf("parallel-work-0")).filter((e) => e.reason === "Relaunching");
    const relaunched2 = (await eventsOf("parallel-work-1")).filter((e) => e.reason === "Relaunching");
    assert.deepEqual(relaunched1.map((e) => [e.type, e.note]), [["Warning", "the pod failed; launching it again (launch 2)"]]);
    assert.deepEqual(relaunched2.map((e) => [e.type, e.note]), [["Normal", "the pod was deleted; launching it again (launch 2)"]]);
  });

  it("scales a parallel region up and down: PEs, pods and ConfigMaps follow the width", async () => {
    await client.patch({ ...Job, name: "parallel", namespace: "default" }, [{ op: "replace", path: "/spec/application/operators/2/width", value: 5 }], "json");
    await waitFor(async () => {
      const c = await childrenOf(client, "parallel");
      return JSON.stringify([c.peNames, c.podNames]) === JSON.stringify([expectedPes("parallel", 5), expectedPes("parallel", 5)]);
    }, "5 work channels", 10_000);
    await waitFor(async () => (await job("parallel")).status?.runningPEs === 7, "7 PEs running", 10_000);

    await client.patch({ ...Job, name: "parallel", namespace: "default" }, [{ op: "replace", path: "/spec/application/operators/2/width", value: 1 }], "json");
    const scaled = await waitFor(async () => {
      const c = await childrenOf(client, "parallel");
      const want = expectedPes("parallel", 1);
      return JSON.stringify([c.peNames, c.podNames, c.cmNames]) === JSON.stringify([want, want, want.map((n) => `${n}-config`).sort()]) ? c : undefined;
    }, "1 work channel, and the rest gone", 10_000);
    assert.equal(scaled.pes.find((p) => p.metadata?.name === "parallel-work-0")?.status?.launchCount, 2, "a surviving PE keeps its launch count");
    const j = await waitFor(async () => {
      const j = await job("parallel");
      return j.status?.phase === "Running" && j.status.peCount === 3 ? j : undefined;
    }, "the Job to report 3 PEs");
    assert.deepEqual(j.status?.processingElements, ["parallel-sink-0", "parallel-ingest-0", "parallel-work-0"]);
  });

  it("applies the restart policy to completed and failed pods", async () => {
    await client.create(parallelJob("batch", { width: 1, restartPolicy: "OnFailure" }));
    await waitFor(async () => (await job("batch")).status?.phase === "Running", "batch running", 10_000);
    await endPod(client, "batch-work-0", "Succeeded");
    await waitFor(async () => (await pe("batch-work-0")).status?.phase === "Completed", "OnFailure: a completed pod completes the PE");
    await endPod(client, "batch-ingest-0", "Failed");
    await waitFor(async () => (await pe("batch-ingest-0")).status?.launchCount === 2, "OnFailure: a failed pod is relaunched");

    await client.create(parallelJob("always", { width: 1 }));
    await waitFor(async () => (await job("always")).status?.phase === "Running", "always running", 10_000);
    await endPod(client, "always-work-0", "Succeeded");
    await waitFor(async () => {
      const p = await pe("always-work-0");
      return p.status?.launchCount === 2 && p.status.lastRelaunchReason === "PodCompleted" && p.status.phase === "Running";
    }, "Always: a completed pod is relaunched", 10_000);

    await client.create(parallelJob("once", { width: 1, restartPolicy: "Never" }));
    await waitFor(async () => (await job("once")).status?.phase === "Running", "once running", 10_000);
    await endPod(client, "once-sink-0", "Failed");
    await waitFor(async () => (await pe("once-sink-0")).status?.phase === "Failed", "Never: a failed pod fails the PE");
    await waitFor(async () => (await job("once")).status?.phase === "Failed", "a failed PE fails the Job");
    assert.equal((await pe("once-sink-0")).status?.launchCount, 1);
    assert.equal((await pod("once-sink-0")).status?.phase, "Failed", "the ended pod stays as a record");
  });

  it("an application that cannot run fails the Job with the reason and one Warning event, and creates nothing", async () => {
    const bad = parallelJob("bad");
    bad.spec.application.operators[1] = { ...bad.spec.application.operators[1]!, width: 2 }; // fused with a width-1 operator
    await client.create(bad);
    const failed = await waitFor(async () => {
      const j = await job("bad");
      return j.status?.phase === "Failed" ? j : undefined;
    }, "the invalid Job to fail");
    assert.match(failed.status?.message ?? "", /partition ingest: fused operators must have the same width/);
    const warnings = await waitFor(async () => {
      const list = (await eventsOf("bad")).filter((e) => e.type === "Warning");
      return list.length ? list : undefined;
    }, "a Warning event on the Job");
    assert.equal(warnings.length, 1);
    assert.equal((await childrenOf(client, "bad")).pes.length, 0);
    await client.delete({ ...Job, name: "bad", namespace: "default" });
  });

  it("deleting a Job removes its PEs, pods and ConfigMaps", async () => {
    for (const name of ["parallel", "batch", "always", "once"]) await client.delete({ ...Job, name, namespace: "default" });
    for (const name of ["parallel", "batch", "always", "once"]) {
      await waitFor(async () => {
        const c = await childrenOf(client, name);
        return c.pes.length + c.pods.length + c.cms.length === 0;
      }, `everything of ${name} to be gone`, 10_000);
    }
  });
});
