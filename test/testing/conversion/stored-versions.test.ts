import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { recordStorageVersion } from "../../../src/testing/conversion/stored-versions.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";

const crd = (storage: string, storedVersions?: string[]): KubeObject => ({
  spec: { versions: [{ name: "v1alpha1", storage: storage === "v1alpha1" }, { name: "v1", storage: storage === "v1" }] },
  ...(storedVersions ? { status: { storedVersions } } : {}),
});

describe("recordStorageVersion", () => {
  it("appends a new storage version after the ones already recorded", () => {
    const c = crd("v1", ["v1alpha1"]);
    assert.equal(recordStorageVersion(c), true);
    assert.deepEqual(c.status, { storedVersions: ["v1alpha1", "v1"] });
  });

  it("leaves a recorded storage version, and never removes one", () => {
    const c = crd("v1alpha1", ["v1alpha1", "v1"]);
    assert.equal(recordStorageVersion(c), false);
    assert.deepEqual(c.status, { storedVersions: ["v1alpha1", "v1"] });
  });

  it("starts the list when the status has none, and ignores a CRD without a storage version", () => {
    const c = crd("v1");
    assert.equal(recordStorageVersion(c), true);
    assert.deepEqual(c.status, { storedVersions: ["v1"] });
    const none: KubeObject = { spec: { versions: [{ name: "v1" }] } };
    assert.equal(recordStorageVersion(none), false);
    assert.equal(none.status, undefined);
  });
});
