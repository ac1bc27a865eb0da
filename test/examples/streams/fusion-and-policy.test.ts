import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { computeProcessingElements, decideLaunch, Job, LAUNCH_ANNOTATION, SPEC_HASH_ANNOTATION } from "../../../examples/streams/operator.ts";
import type { OperatorSpec, ProcessingElement, ProcessingElementStatus, RestartPolicy } from "../../../examples/streams/operator.ts";
import type { Pod } from "../../../src/index.ts";
import { parallelJob } from "./fixtures.ts";

const job = (operators: OperatorSpec[]): Job => ({ ...Job, metadata: { name: "j", namespace: "default" }, spec: { application: { operators } } });

describe("streams fusion: an application becomes processing elements", () => {
  it("fuses a partition, replicates a parallel region per channel and puts the most restrictive placement first", () => {
    const r = computeProcessingElements(parallelJob("parallel", { width: 2 }));
    assert.ok(r.ok);
    assert.deepEqual(r.pes.map((p) => [p.name, p.restrictiveness]), [
      ["parallel-sink-0", 100], ["parallel-ingest-0", 1], ["parallel-work-0", 0], ["parallel-work-1", 0],
    ]);
    const ingest = r.pes[1]!;
    assert.deepEqual(ingest.spec.operators.map((o) => o.name), ["beacon", "format"]);
    assert.deepEqual(ingest.spec.operators[1]!.inputs, [], "a fused input is inside the PE");
    assert.deepEqual(ingest.labels, { "streams.example.com/job": "parallel", "streams.example.com/pe": "parallel-ingest-0" });
    assert.equal(ingest.spec.restartPolicy, "Always");
  });

  it("connects channel to channel inside a parallel pipeline, and every channel across a width change", () => {
    const r = computeProcessingElements(job([
      { name: "src", width: 2 }, { name: "mid", width: 2, inputs: ["src"] }, { name: "out", inputs: ["mid"] },
    ]));
    assert.ok(r.ok);
    const inputs = Object.fromEntries(r.pes.map((p) => [p.name, p.spec.operators[0]!.inputs]));
    assert.deepEqual(inputs, { "j-src-0": [], "j-src-1": [], "j-mid-0": ["j-src-0"], "j-mid-1": ["j-src-1"], "j-out-0": ["j-mid-0", "j-mid-1"] });
  });

  it("keeps application order among equally restrictive PEs and ranks isolation over exlocation over a host pool", () => {
    const r = computeProcessingElements(job([
      { name: "a" },
      { name: "b", placement: { nodeSelector: { pool: "x", zone: "1" } } },
      { name: "c", placement: { hostExlocation: "spread" } },
      { name: "d", placement: { hostIsolation: true } },
      { name: "e" },
    ]));
    assert.ok(r.ok);
    assert.deepEqual(r.pes.map((p) => p.name), ["j-d-0", "j-c-0", "j-b-0", "j-a-0", "j-e-0"]);
  });

  it("refuses what cannot run, naming each problem", () => {
    const r = computeProcessingElements(job([
      { name: "a", partition: "p", width: 2 }, { name: "b", partition: "p", width: 3 },
      { name: "c", inputs: ["nope"] }, { name: "c" }, { name: "Bad_Name" },
      { name: "x", partition: "q", placement: { nodeSelector: { pool: "1" } } }, { name: "y", partition: "q", placement: { nodeSelector: { pool: "2" } } },
    ]));
    assert.equal(r.ok, false);
    assert.ok(!r.ok);
    const text = r.problems.join("\n");
    for (const want of ["partition p: fused operators must have the same width", 'input "nope"', '"c" is defined twice', "DNS-1123", "pool=1 and pool=2"]) {
      assert.ok(text.includes(want), `${want} in:\n${text}`);
    }
  });
});

describe("streams restart policy: what the PE controller does next", () => {
  const hash = "h1";
  const pe = (status: ProcessingElementStatus, restartPolicy: RestartPolicy = "Always"): ProcessingElement => ({
    apiVersion: "streams.example.com/v1", kind: "ProcessingElement", metadata: { name: "pe", namespace: "default" },
    spec: { jobName: "j", group: "g", channel: 0, image: "i", restartPolicy, placement: {}, operators: [] }, status,
  });
  const pod = (launch: number, phase: string, opts: { deleting?: boolean; hash?: string } = {}): Pod => ({
    apiVersion: "v1", kind: "Pod",
    metadata: { name: "pe", annotations: { [LAUNCH_ANNOTATION]: String(launch), [SPEC_HASH_ANNOTATION]: opts.hash ?? hash }, ...(opts.deleting ? { deletionTimestamp: new Date().toISOString() } : {}) },
    status: { phase },
  });

  it("records the first launch before its pod, and never counts a recorded launch again", () => {
    assert.deepEqual(decideLaunch(pe({}), undefined, hash), { step: "launch", launch: 1, count: true });
    assert.deepEqual(decideLaunch(pe({ launchCount: 3, phase: "Restarting" }), undefined, hash), { step: "launch", launch: 3, count: false });
    assert.deepEqual(decideLaunch(pe({ launchCount: 3 }), pod(2, "Failed"), hash), { step: "retire" }, "a pod of a counted-over launch is only retired");
    assert.deepEqual(decideLaunch(pe({ launchCount: 3 }), pod(3, "Running"), hash), { step: "keep", phase: "Running" });
    assert.deepEqual(decideLaunch(pe({ launchCount: 3 }), pod(3, "Pending"), hash), { step: "keep", phase: "Pending" });
  });

  it("follows the policy table for failed, completed, deleted and changed pods", () => {
    const step = (policy: RestartPolicy, p: Pod) => decideLaunch(pe({ launchCount: 1, phase: "Running" }, policy), p, hash);
    const table: [RestartPolicy, Pod, string][] = [
      ["Always", pod(1, "Failed"), "relaunch PodFailed"], ["OnFailure", pod(1, "Failed"), "relaunch PodFailed"], ["Never", pod(1, "Failed"), "finish Failed"],
      ["Always", pod(1, "Succeeded"), "relaunch PodCompleted"], ["OnFailure", pod(1, "Succeeded"), "finish Completed"], ["Never", pod(1, "Succeeded"), "finish Completed"],
      ["Never", pod(1, "Running", { deleting: true }), "relaunch PodDeleted"], ["OnFailure", pod(1, "Running", { hash: "old" }), "relaunch SpecChanged"],
    ];
    for (const [policy, p, want] of table) {
      const s = step(policy, p);
      assert.equal(`${s.step} ${"reason" in s ? s.reason : "phase" in s ? s.phase : ""}`, want, `${policy} with a ${p.status?.phase} pod`);
      if (s.step === "relaunch") assert.equal(s.launch, 2);
    }
  });

  it("does not launch a finished PE again when its ended pod is deleted", () => {
    assert.deepEqual(decideLaunch(pe({ launchCount: 1, phase: "Completed" }, "OnFailure"), pod(1, "Succeeded", { deleting: true }), hash), { step: "finish", phase: "Completed" });
    assert.deepEqual(decideLaunch(pe({ launchCount: 1, phase: "Completed" }, "OnFailure"), undefined, hash), { step: "keep", phase: "Completed" });
  });
});
