import { test } from "node:test";
import assert from "node:assert/strict";
import { EXCLUDED, builtinResourceTypes } from "../../src/testing/builtin-kinds.ts";
import { builtinListType, strategicListType, strategicMergeKey } from "../../src/testing/patch/merge-keys.ts";

const types = builtinResourceTypes();
const typeOf = (group: string, version: string, plural: string) => {
  const t = types.find((x) => x.group === group && x.version === version && x.plural === plural);
  assert.ok(t, `${group}/${version}/${plural} is served`);
  return t;
};

test("every resource of kube-apiserver's Swagger document is served, but the excluded ones", () => {
  const job = typeOf("batch", "v1", "jobs");
  assert.equal(job.kind, "Job");
  assert.equal(job.namespaced, true);
  assert.equal(job.status, true);
  assert.equal(job.scale, undefined);
  assert.deepEqual(job.verbs, ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]);
  assert.equal(typeOf("", "v1", "replicationcontrollers").scale?.specReplicasPath, ".spec.replicas");
  assert.equal(typeOf("", "v1", "nodes").namespaced, false);
  assert.deepEqual(typeOf("", "v1", "namespaces").verbs, ["create", "delete", "get", "list", "patch", "update", "watch"]);
  assert.deepEqual(typeOf("authorization.k8s.io", "v1", "subjectaccessreviews").verbs, ["create"]);
  for (const key of Object.keys(EXCLUDED)) {
    const [group, plural] = key.split("/");
    assert.ok(!types.some((t) => t.group === group && t.plural === plural), `${key} is left out`);
  }
  assert.ok(types.length > 60);
});

test("short names, categories and generation are kube-apiserver's", () => {
  assert.deepEqual(typeOf("batch", "v1", "cronjobs").shortNames, ["cj"]);
  assert.deepEqual(typeOf("batch", "v1", "jobs").categories, ["all"]);
  assert.deepEqual(typeOf("networking.k8s.io", "v1", "networkpolicies").shortNames, ["netpol"]);
  assert.deepEqual(typeOf("", "v1", "resourcequotas").shortNames, ["quota"]);
  for (const [group, plural] of [["", "pods"], ["batch", "jobs"], ["batch", "cronjobs"], ["networking.k8s.io", "networkpolicies"], ["policy", "poddisruptionbudgets"], ["apps", "daemonsets"]]) {
    assert.equal(types.find((t) => t.group === group && t.plural === plural)!.hasGeneration, true, `${plural} keep metadata.generation`);
  }
  for (const plural of ["configmaps", "services", "secrets"]) assert.equal(typeOf("", "v1", plural).hasGeneration, false);
  // One storage for both autoscaling versions, kept at v2; one for both Event views.
  assert.equal(typeOf("autoscaling", "v1", "horizontalpodautoscalers").storageVersion, "v2");
  assert.equal(typeOf("autoscaling", "v1", "horizontalpodautoscalers").storageKey, typeOf("autoscaling", "v2", "horizontalpodautoscalers").storageKey);
  assert.equal(typeOf("events.k8s.io", "v1", "events").storageKey, "events");
});

test("list types come from the schemas of every built-in kind", () => {
  const cronjob = builtinListType("CronJob", "batch/v1");
  assert.deepEqual(cronjob(["spec", "jobTemplate", "spec", "template", "spec", "containers"]), { type: "map", keys: ["name"] });
  assert.deepEqual(cronjob(["spec", "jobTemplate", "spec", "template", "spec", "containers", "ports"]), { type: "map", keys: ["containerPort", "protocol"] });
  assert.deepEqual(builtinListType("Ingress")(["spec", "rules"]), { type: "atomic" });
  assert.deepEqual(builtinListType("DaemonSet")(["spec", "template", "spec", "volumes"]), { type: "map", keys: ["name"] });
  assert.deepEqual(builtinListType("HorizontalPodAutoscaler", "autoscaling/v2")(["spec", "metrics"]), { type: "atomic" });
  // A Job's conditions: atomic for server-side apply, merged by type for strategic merge patch.
  assert.deepEqual(builtinListType("Job", "batch/v1")(["status", "conditions"]), { type: "atomic" });
  assert.equal(strategicMergeKey("Job", ["status", "conditions"], "batch/v1"), "type");
  assert.deepEqual(strategicListType("Job", ["status", "conditions"], "batch/v1"), { type: "map", keys: ["type"] });
  assert.deepEqual(strategicListType("Pod", ["metadata", "finalizers"]), { type: "set" });
  assert.deepEqual(strategicListType("Pod", ["spec", "tolerations"]), { type: "atomic" });
  // metadata lists come from ObjectMeta, for every kind.
  assert.deepEqual(builtinListType("ConfigMap")(["metadata", "ownerReferences"]), { type: "map", keys: ["uid"] });
});
