import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { get, list, namespace, sampleCr, startHarness, waitForPhase } from "./harness.ts";
import type { Harness } from "./harness.ts";

const NS = "pinot-sample";

describe("pinot example: the upstream pinot-basic sample", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await namespace(h, NS);
  });
  after(() => h.stop());

  it("converges: per node a ConfigMap, a StatefulSet and a Service, owned by the Pinot, and status Ready", async () => {
    const created = await h.client.create({ ...sampleCr(), metadata: { name: "pinot-simple", namespace: NS } });
    const pinot = await waitForPhase(h, NS, "pinot-simple", "Ready");
    console.log(JSON.stringify(pinot.status, null, 1));
    console.log(h.cluster.requests.summary());
  });
});
