import { test } from "node:test";
import assert from "node:assert/strict";
import { statefulSetRules } from "../../builders/statefulset.ts";
import type { KubeObject } from "../../src/client/types.ts";

function claim(name: string, storage = "10Gi", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { name }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } }, ...extra } };
}

function statefulSet(spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "db", namespace: "shop" },
    spec: {
      replicas: 3,
      serviceName: "db",
      selector: { matchLabels: { app: "db" } },
      template: {
        metadata: { labels: { app: "db" } },
        spec: {
          containers: [{ name: "db", image: "postgres:17", volumeMounts: [{ name: "data", mountPath: "/var/lib/postgresql" }, { name: "config", mountPath: "/etc/db" }] }],
          volumes: [{ name: "config", configMap: { name: "db-config" } }],
          ...podSpec,
        },
      },
      volumeClaimTemplates: [claim("data")],
      ...spec,
    },
  };
}

const fields = (obj: KubeObject) => statefulSetRules.validate(obj).map((e) => e.field);
const changes = (live: KubeObject, desired: KubeObject) => statefulSetRules.immutableChanges!(live, desired);
const rollout = (generation: number, spec: Record<string, unknown>, status: Record<string, unknown>) =>
  statefulSetRules.rolloutStatus!({ metadata: { name: "db", generation }, spec, status });

test("a valid StatefulSet has no problems, with or without serviceName", () => {
  assert.deepEqual(statefulSetRules.validate(statefulSet()), []);
  assert.deepEqual(statefulSetRules.validate(statefulSet({ serviceName: undefined, podManagementPolicy: "Parallel", updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 2 } } })), []);
  assert.equal(statefulSetRules.phase, "workload");
});

test("the Deployment rules apply: selector match, containers, replicas", () => {
  const obj = statefulSet({ replicas: -2, selector: { matchLabels: { app: "database" } } }, { containers: [{ name: "db" }] });
  assert.deepEqual(fields(obj), ["spec.replicas", "spec.selector.matchLabels", "spec.template.spec.containers[0].image"]);
  assert.match(statefulSetRules.validate(obj)[1]!.message, /^StatefulSet\/db: spec.selector.matchLabels: app=database does not match/);
});

test("serviceName, when set, must be a DNS-1123 label", () => {
  assert.deepEqual(fields(statefulSet({ serviceName: "DB.svc" })), ["spec.serviceName"]);
});

test("claim templates need a valid unique name, access modes and a storage request", () => {
  const obj = statefulSet({
    volumeClaimTemplates: [claim("data"), claim("data"), { metadata: { name: "Logs" }, spec: { accessModes: ["ReadWriteSometimes"], resources: {} } }, { spec: { accessModes: [], resources: { requests: { storage: "lots" } } } }],
  }, { containers: [{ name: "db", image: "postgres" }] });
  assert.deepEqual(fields(obj), [
    "spec.volumeClaimTemplates[1].metadata.name",
    "spec.volumeClaimTemplates[2].metadata.name",
    "spec.volumeClaimTemplates[2].spec.accessModes[0]",
    "spec.volumeClaimTemplates[2].spec.resources.requests.storage",
    "spec.volumeClaimTemplates[3].metadata.name",
    "spec.volumeClaimTemplates[3].spec.accessModes",
    "spec.volumeClaimTemplates[3].spec.resources.requests.storage",
  ]);
});

test("a pod volume must not reuse a claim template's name", () => {
  const problems = statefulSetRules.validate(statefulSet({}, { volumes: [{ name: "data", emptyDir: {} }, { name: "config", configMap: { name: "c" } }] }));
  assert.deepEqual(problems.map((e) => e.field), ["spec.template.spec.volumes[0].name"]);
  assert.match(problems[0]!.message, /"data" is also the name of a spec.volumeClaimTemplates entry. Fix: rename/);
});

test("containers may mount claim templates but not unknown volumes", () => {
  assert.deepEqual(fields(statefulSet({ volumeClaimTemplates: [] })), ["spec.template.spec.containers[0].volumeMounts[0].name"]);
});

test("pod management policy, update strategy and partition are checked", () => {
  assert.deepEqual(fields(statefulSet({ podManagementPolicy: "Random" })), ["spec.podManagementPolicy"]);
  assert.deepEqual(fields(statefulSet({ updateStrategy: { type: "Recreate" } })), ["spec.updateStrategy.type"]);
  assert.deepEqual(fields(statefulSet({ updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: -1 } } })), ["spec.updateStrategy.rollingUpdate.partition"]);
});

test("selector, serviceName and podManagementPolicy changes are immutable changes", () => {
  const live = statefulSet();
  assert.deepEqual(changes(live, statefulSet({ selector: { matchLabels: { app: "db2" } } })), ["spec.selector"]);
  assert.deepEqual(changes(live, statefulSet({ serviceName: "db-headless" })), ["spec.serviceName"]);
  assert.deepEqual(changes(live, statefulSet({ podManagementPolicy: "Parallel" })), ["spec.podManagementPolicy"]);
  assert.deepEqual(changes(live, statefulSet({ podManagementPolicy: "OrderedReady" })), []);
});

test("a revisionHistoryLimit change is an immutable change (the server defaults it to 10)", () => {
  const live = statefulSet();
  assert.deepEqual(changes(live, statefulSet({ revisionHistoryLimit: 3 })), ["spec.revisionHistoryLimit"]);
  assert.deepEqual(changes(live, statefulSet({ revisionHistoryLimit: 10 })), [], "the default is no change");
  assert.deepEqual(changes(statefulSet({ revisionHistoryLimit: 3 }), statefulSet()), [], "leaving it out keeps the live value");
});

test("template, replicas and update strategy changes are allowed", () => {
  const desired = statefulSet({ replicas: 5, updateStrategy: { type: "OnDelete" } }, { containers: [{ name: "db", image: "postgres:18" }] });
  assert.deepEqual(changes(statefulSet(), desired), []);
});

test("server defaults on live claim templates are not changes", () => {
  const live = statefulSet({
    podManagementPolicy: "OrderedReady",
    volumeClaimTemplates: [{
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "data", creationTimestamp: null },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "10240Mi" } }, volumeMode: "Filesystem", storageClassName: "standard" },
      status: { phase: "Pending" },
    }],
  });
  assert.deepEqual(changes(live, statefulSet()), []);
});

test("claim template changes are reported once as spec.volumeClaimTemplates", () => {
  const live = statefulSet({ volumeClaimTemplates: [claim("data", "10Gi", { storageClassName: "fast" })] });
  const cases: unknown[][] = [
    [claim("data", "20Gi", { storageClassName: "fast" })],
    [claim("data", "10Gi", { storageClassName: "slow" })],
    [claim("data", "10Gi", { storageClassName: "fast", accessModes: ["ReadWriteMany"] })],
    [claim("data", "10Gi", { storageClassName: "fast", selector: { matchLabels: { disk: "ssd" } } })],
    [claim("db-data", "10Gi", { storageClassName: "fast" })],
    [claim("data", "10Gi", { storageClassName: "fast" }), claim("logs")],
    [],
  ];
  for (const templates of cases) {
    assert.deepEqual(changes(live, statefulSet({ volumeClaimTemplates: templates })), ["spec.volumeClaimTemplates"], JSON.stringify(templates));
  }
});

test("a fresh StatefulSet waits for its first observed generation", () => {
  assert.deepEqual(rollout(1, { replicas: 3 }, {}), { done: false, waitingOn: "observedGeneration 0 < generation 1" });
});

test("a rolling update waits on updated, ready and revision in turn", () => {
  const spec = { replicas: 3 };
  const base = { observedGeneration: 2, replicas: 3, currentRevision: "db-1", updateRevision: "db-2" };
  assert.deepEqual(rollout(2, spec, { ...base, updatedReplicas: 1, readyReplicas: 3 }), { done: false, waitingOn: "1/3 replicas updated" });
  assert.deepEqual(rollout(2, spec, { ...base, updatedReplicas: 3, readyReplicas: 2 }), { done: false, waitingOn: "2/3 replicas ready" });
  assert.deepEqual(rollout(2, spec, { ...base, updatedReplicas: 3, readyReplicas: 3 }), { done: false, waitingOn: "currentRevision db-1 != updateRevision db-2" });
  assert.deepEqual(rollout(2, spec, { ...base, updatedReplicas: 3, readyReplicas: 3, currentRevision: "db-2" }), { done: true });
  assert.deepEqual(rollout(2, spec, { ...base, replicas: 4, updatedReplicas: 3, readyReplicas: 4 }), { done: false, waitingOn: "4 replicas exist, want 3 (scaling down)" });
});

test("a partitioned rolling update is done once the pods above the partition are updated", () => {
  const spec = { replicas: 3, updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 2 } } };
  const base = { observedGeneration: 5, replicas: 3, readyReplicas: 3, currentRevision: "db-1", updateRevision: "db-2" };
  assert.deepEqual(rollout(5, spec, { ...base, updatedReplicas: 0 }), { done: false, waitingOn: "0/1 replicas updated (partition 2)" });
  assert.deepEqual(rollout(5, spec, { ...base, updatedReplicas: 1 }), { done: true });
  const beyond = { replicas: 3, updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 5 } } };
  assert.deepEqual(rollout(5, beyond, { ...base, updatedReplicas: 0 }), { done: true });
});

test("an OnDelete StatefulSet is done when ready, without waiting for pods to update", () => {
  const spec = { replicas: 3, updateStrategy: { type: "OnDelete" } };
  const status = { observedGeneration: 4, replicas: 3, updatedReplicas: 0, currentRevision: "db-1", updateRevision: "db-2" };
  assert.deepEqual(rollout(4, spec, { ...status, readyReplicas: 3 }), { done: true });
  assert.deepEqual(rollout(4, spec, { ...status, readyReplicas: 1 }), { done: false, waitingOn: "1/3 replicas ready" });
  assert.deepEqual(rollout(5, spec, { ...status, readyReplicas: 3 }), { done: false, waitingOn: "observedGeneration 4 < generation 5" });
});
