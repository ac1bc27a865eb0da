import { test } from "node:test";
import assert from "node:assert/strict";
import { builtinListType, strategicMergeKey } from "../../../src/testing/patch/merge-keys.ts";

const POD_SPEC = ["spec", "template", "spec"];

test("pod spec lists of workloads are keyed like the Go types declare", () => {
  for (const kind of ["Deployment", "StatefulSet", "ReplicaSet"]) {
    const lookup = builtinListType(kind);
    assert.deepEqual(lookup([...POD_SPEC, "containers"]), { type: "map", keys: ["name"] });
    assert.deepEqual(lookup([...POD_SPEC, "initContainers", "env"]), { type: "map", keys: ["name"] });
    assert.deepEqual(lookup([...POD_SPEC, "containers", "volumeMounts"]), { type: "map", keys: ["mountPath"] });
    assert.deepEqual(lookup([...POD_SPEC, "volumes"]), { type: "map", keys: ["name"] });
    assert.deepEqual(lookup([...POD_SPEC, "tolerations"]), { type: "atomic" });
  }
  const pod = builtinListType("Pod");
  assert.deepEqual(pod(["spec", "ephemeralContainers"]), { type: "map", keys: ["name"] });
  assert.deepEqual(pod(["spec", "containers", "volumeDevices"]), { type: "map", keys: ["devicePath"] });
  assert.deepEqual(pod(["spec", "hostAliases"]), { type: "map", keys: ["ip"] });
  assert.deepEqual(pod(["spec", "imagePullSecrets"]), { type: "map", keys: ["name"] });
  assert.deepEqual(pod(["spec", "template", "spec", "containers"]), { type: "atomic" });
});

test("compound apply keys have a single strategic merge key", () => {
  const pod = builtinListType("Pod");
  assert.deepEqual(pod(["spec", "containers", "ports"]), { type: "map", keys: ["containerPort", "protocol"] });
  assert.equal(strategicMergeKey("Pod", ["spec", "containers", "ports"]), "containerPort");
  assert.deepEqual(builtinListType("Service")(["spec", "ports"]), { type: "map", keys: ["port", "protocol"] });
  assert.equal(strategicMergeKey("Service", ["spec", "ports"]), "port");
  assert.equal(strategicMergeKey("Deployment", [...POD_SPEC, "topologySpreadConstraints"]), "topologyKey");
  assert.equal(strategicMergeKey("Deployment", [...POD_SPEC, "containers"]), "name");
});

test("metadata lists and conditions behave the same for every kind", () => {
  for (const kind of ["ConfigMap", "Secret", "Namespace", "Lease", "CustomResourceDefinition", "Event"]) {
    const lookup = builtinListType(kind);
    assert.deepEqual(lookup(["metadata", "finalizers"]), { type: "set" });
    assert.deepEqual(lookup(["metadata", "ownerReferences"]), { type: "map", keys: ["uid"] });
    assert.deepEqual(lookup(["status", "conditions"]), { type: "map", keys: ["type"] });
    assert.equal(strategicMergeKey(kind, ["metadata", "finalizers"]), undefined);
    assert.equal(strategicMergeKey(kind, ["status", "conditions"]), "type");
  }
});

test("everything else is atomic", () => {
  assert.deepEqual(builtinListType("StatefulSet")(["spec", "volumeClaimTemplates"]), { type: "atomic" });
  assert.deepEqual(builtinListType("ConfigMap")(["spec", "containers"]), { type: "atomic" });
  assert.deepEqual(builtinListType("Pod")(["spec", "containers", "args"]), { type: "atomic" });
  assert.equal(strategicMergeKey("Pod", ["spec", "tolerations"]), undefined);
});
