/**
 * The CRD the pinot example installs is the upstream one plus a status schema and printer
 * columns: every spec the upstream CRD accepts is accepted, and only those.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { operator } from "../../../examples/pinot/operator.ts";
import { pinotCrd, pinotStatusSchema, upstreamPinotCrd } from "../../../examples/pinot/crd.ts";

const versions = (crd: any): any[] => crd.spec.versions;

describe("pinot example CRD", () => {
  it("keeps the upstream CRD's names, scope and spec schema, and adds only status and printer columns", () => {
    const crd = pinotCrd();
    assert.deepEqual(operator.crds, [crd]);
    assert.equal(crd.metadata!.name, "pinots.datainfra.io");
    const [before, after] = [upstreamPinotCrd as any, crd as any];
    assert.deepEqual(after.spec.names, before.spec.names);
    assert.equal(after.spec.scope, before.spec.scope);
    assert.equal(versions(after).length, versions(before).length);
    for (const [i, v] of versions(after).entries()) {
      const up = versions(before)[i];
      const { status: newStatus, ...newRest } = v.schema.openAPIV3Schema.properties;
      const { status: oldStatus, ...oldRest } = up.schema.openAPIV3Schema.properties;
      assert.deepEqual(newRest, oldRest, "spec, metadata, apiVersion and kind schemas unchanged");
      assert.deepEqual(oldStatus, { description: "PinotStatus defines the observed state of Pinot", type: "object" }, "upstream prunes every status field");
      assert.deepEqual(newStatus, pinotStatusSchema);
      assert.deepEqual(v.subresources, up.subresources);
      assert.deepEqual(v.additionalPrinterColumns.map((c: any) => c.name), ["Phase", "Waiting On", "Age"]);
    }
    assert.equal(versions(upstreamPinotCrd)[0].additionalPrinterColumns.length, 1, "the vendored CRD object is not changed by the overlay");
  });

  it("ships the upstream sample as its sample", () => {
    assert.deepEqual(operator.samples.map((s) => [s.kind, s.metadata?.name]), [["Pinot", "pinot-simple"]]);
  });
});
