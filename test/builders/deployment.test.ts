import { test } from "node:test";
import assert from "node:assert/strict";
import { deploymentRules } from "../../builders/deployment.ts";
import type { KubeObject } from "../../src/client/types.ts";

function deployment(spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", namespace: "shop", labels: { app: "web" } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web", tier: "front" } },
        spec: {
          containers: [{ name: "web", image: "nginx:1.27", ports: [{ name: "http", containerPort: 8080 }], volumeMounts: [{ name: "config", mountPath: "/etc/web" }] }],
          volumes: [{ name: "config", configMap: { name: "web-config" } }],
          ...podSpec,
        },
      },
      ...spec,
    },
  };
}

const fields = (obj: KubeObject) => deploymentRules.validate(obj).map((e) => e.field);
const rollout = (metadata: Record<string, unknown>, spec: Record<string, unknown>, status: Record<string, unknown>) =>
  deploymentRules.rolloutStatus!({ metadata: { name: "web", ...metadata }, spec, status });

test("a valid Deployment has no problems", () => {
  assert.deepEqual(deploymentRules.validate(deployment()), []);
  assert.deepEqual(deploymentRules.validate(deployment({ replicas: 0, strategy: { type: "Recreate" } })), []);
  assert.equal(deploymentRules.phase, "workload");
});

test("a selector label the template lacks is reported with both label sets", () => {
  const obj = deployment({ template: { metadata: { labels: { app: "api" } }, spec: { containers: [{ name: "web", image: "nginx" }] } } });
  const [err, ...rest] = deploymentRules.validate(obj);
  assert.equal(rest.length, 0);
  assert.equal(
    err!.message,
    "Deployment/web: spec.selector.matchLabels: app=web does not match spec.template.metadata.labels (app=api). Fix: make the template labels include every selector label",
  );
});

test("a template without labels cannot match the selector", () => {
  const obj = deployment({ template: { spec: { containers: [{ name: "web", image: "nginx" }] } } });
  assert.match(deploymentRules.validate(obj)[0]!.problem, /app=web does not match spec.template.metadata.labels \(none\)/);
});

test("selector expressions are validated and matched against the template labels", () => {
  const matching = deployment({ selector: { matchExpressions: [{ key: "tier", operator: "In", values: ["front", "back"] }, { key: "canary", operator: "DoesNotExist" }] } });
  assert.deepEqual(fields(matching), []);
  const unmatched = deployment({ selector: { matchExpressions: [{ key: "tier", operator: "NotIn", values: ["front"] }] } });
  const [err] = deploymentRules.validate(unmatched);
  assert.equal(err!.field, "spec.selector.matchExpressions[0]");
  assert.match(err!.problem, /tier NotIn \(front\) does not match spec.template.metadata.labels \(app=web,tier=front\)/);
  const malformed = deployment({ selector: { matchExpressions: [{ key: "tier", operator: "Is" }, { key: "x", operator: "In", values: [] }, { key: "y", operator: "Exists", values: ["a"] }] } });
  assert.deepEqual(fields(malformed), ["spec.selector.matchExpressions[0].operator", "spec.selector.matchExpressions[1].values", "spec.selector.matchExpressions[2].values"]);
});

test("a missing or empty selector is required", () => {
  assert.deepEqual(fields(deployment({ selector: undefined })), ["spec.selector"]);
  const [err] = deploymentRules.validate(deployment({ selector: {} }));
  assert.equal(err!.field, "spec.selector");
  assert.match(err!.problem, /neither matchLabels nor matchExpressions/);
  assert.deepEqual(fields(deployment({ selector: { matchLabels: { "bad key": "x" } } })), ['spec.selector.matchLabels["bad key"]']);
});

test("a missing spec or template is reported", () => {
  assert.deepEqual(fields({ metadata: { name: "web" } }), ["spec"]);
  assert.deepEqual(fields(deployment({ template: undefined })), ["spec.template"]);
});

test("a Deployment needs at least one container", () => {
  assert.deepEqual(fields(deployment({}, { containers: [] })), ["spec.template.spec.containers"]);
  assert.deepEqual(fields(deployment({}, { containers: undefined, volumes: undefined })), ["spec.template.spec.containers"]);
});

test("each container needs a unique DNS-1123 label name and an image", () => {
  const problems = deploymentRules.validate(deployment({}, {
    volumes: undefined,
    initContainers: [{ name: "setup", image: "busybox" }],
    containers: [{ name: "Web_1", image: "nginx" }, { image: "nginx" }, { name: "setup", image: "" }],
  }));
  assert.deepEqual(problems.map((e) => e.field), [
    "spec.template.spec.containers[0].name",
    "spec.template.spec.containers[1].name",
    "spec.template.spec.containers[2].name",
    "spec.template.spec.containers[2].image",
  ]);
  assert.match(problems[2]!.problem, /used by another container/);
  assert.match(problems[3]!.message, /image: is missing for container "setup". Fix: set image/);
});

test("container ports must be 1-65535 with valid unique names and protocols", () => {
  const problems = deploymentRules.validate(deployment({}, {
    volumes: undefined,
    containers: [{ name: "web", image: "nginx", ports: [
      { containerPort: 0 },
      { containerPort: 70000 },
      { containerPort: 80, name: "http" },
      { containerPort: 81, name: "http" },
      { containerPort: 82, name: "8082" },
      { containerPort: 83, protocol: "HTTP" },
    ] }],
  }));
  const at = "spec.template.spec.containers[0].ports";
  assert.deepEqual(problems.map((e) => e.field), [`${at}[0].containerPort`, `${at}[1].containerPort`, `${at}[3].name`, `${at}[4].name`, `${at}[5].protocol`]);
  assert.match(problems[1]!.message, /70000 is out of range. Fix: use a port number from 1 to 65535/);
});

test("volume mounts must name a pod volume and volumes must be unique", () => {
  const problems = deploymentRules.validate(deployment({}, {
    volumes: [{ name: "config", emptyDir: {} }, { name: "config", emptyDir: {} }],
    containers: [{ name: "web", image: "nginx", volumeMounts: [{ name: "data", mountPath: "/data" }, { name: "config" }] }],
  }));
  assert.deepEqual(problems.map((e) => e.field), [
    "spec.template.spec.volumes[1].name",
    "spec.template.spec.containers[0].volumeMounts[0].name",
    "spec.template.spec.containers[0].volumeMounts[1].mountPath",
  ]);
});

test("replicas must be a non-negative integer", () => {
  assert.deepEqual(fields(deployment({ replicas: -1 })), ["spec.replicas"]);
  assert.deepEqual(fields(deployment({ replicas: 1.5 })), ["spec.replicas"]);
  assert.deepEqual(fields(deployment({ replicas: "3" })), ["spec.replicas"]);
});

test("a restartPolicy other than Always and an unknown strategy are refused", () => {
  assert.deepEqual(fields(deployment({}, { restartPolicy: "Never" })), ["spec.template.spec.restartPolicy"]);
  assert.deepEqual(fields(deployment({ strategy: { type: "BlueGreen" } })), ["spec.strategy.type"]);
});

test("a dotted name is accepted, a bad namespace is not", () => {
  assert.deepEqual(fields({ ...deployment(), metadata: { name: "web.v2" } }), []);
  assert.deepEqual(fields({ ...deployment(), metadata: { name: "web", namespace: "a.b" } }), ["metadata.namespace"]);
});

test("a changed selector is an immutable change, other changes are not", () => {
  const live = deployment();
  assert.deepEqual(deploymentRules.immutableChanges!(live, deployment({ selector: { matchLabels: { app: "web", tier: "front" } } })), ["spec.selector"]);
  assert.deepEqual(deploymentRules.immutableChanges!(live, deployment({ replicas: 5 }, { containers: [{ name: "web", image: "nginx:1.28" }] })), []);
  assert.deepEqual(deploymentRules.immutableChanges!(live, deployment({ selector: { matchExpressions: [], matchLabels: { app: "web" } } })), []);
});

test("a fresh Deployment waits for its first observed generation", () => {
  assert.deepEqual(rollout({ generation: 1 }, { replicas: 3 }, {}), { done: false, waitingOn: "observedGeneration 0 < generation 1" });
});

test("a Deployment whose new spec is not yet observed waits even if the old one was complete", () => {
  const status = { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 };
  assert.deepEqual(rollout({ generation: 2 }, { replicas: 3 }, status), { done: false, waitingOn: "observedGeneration 1 < generation 2" });
});

test("a progressing Deployment says which replica count it waits on", () => {
  const meta = { generation: 2 };
  const base = { observedGeneration: 2 };
  assert.deepEqual(rollout(meta, { replicas: 3 }, { ...base, replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 }), { done: false, waitingOn: "1/3 replicas updated" });
  assert.deepEqual(rollout(meta, { replicas: 3 }, { ...base, replicas: 4, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 }), { done: false, waitingOn: "4 replicas exist, want 3 (old pods terminating)" });
  assert.deepEqual(rollout(meta, { replicas: 3 }, { ...base, replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2 }), { done: false, waitingOn: "2/3 replicas ready" });
  assert.deepEqual(rollout(meta, { replicas: 3 }, { ...base, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 2 }), { done: false, waitingOn: "2/3 replicas available" });
});

test("a complete Deployment is done, with replicas defaulting to 1", () => {
  assert.deepEqual(rollout({ generation: 2 }, { replicas: 3 }, { observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 }), { done: true });
  assert.deepEqual(rollout({ generation: 1 }, {}, { observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 }), { done: true });
  assert.deepEqual(rollout({ generation: 1 }, { replicas: 0 }, { observedGeneration: 1 }), { done: true });
});

test("an exceeded progress deadline is reported with the condition's message", () => {
  const conditions = [
    { type: "Available", status: "False", reason: "MinimumReplicasUnavailable" },
    { type: "Progressing", status: "False", reason: "ProgressDeadlineExceeded", message: 'ReplicaSet "web-7f9" has timed out progressing.' },
  ];
  const status = rollout({ generation: 2 }, { replicas: 3 }, { observedGeneration: 2, replicas: 4, updatedReplicas: 1, conditions });
  assert.deepEqual(status, { done: false, waitingOn: 'progress deadline exceeded: ReplicaSet "web-7f9" has timed out progressing.' });
});

test("a paused Deployment is done once observed and says paused", () => {
  const status = { observedGeneration: 3, replicas: 4, updatedReplicas: 1, readyReplicas: 2 };
  assert.deepEqual(rollout({ generation: 3 }, { replicas: 3, paused: true }, status), { done: true, waitingOn: "paused" });
  assert.deepEqual(rollout({ generation: 4 }, { replicas: 3, paused: true }, status), { done: false, waitingOn: "observedGeneration 3 < generation 4" });
});
