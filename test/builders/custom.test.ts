import { test } from "node:test";
import assert from "node:assert/strict";
import { customObjectRules } from "../../builders/custom.ts";
import {
  configMapRules,
  deploymentRules,
  secretRules,
  serviceRules,
  statefulSetRules,
  storageRules,
} from "../../builders/index.ts";
import type { KubeObject } from "../../src/client/types.ts";

const GROUP_VERSION = "sample.foperator.gfxmonk.net/v1alpha1";
const greetings = customObjectRules(GROUP_VERSION, "Greeting");

function greeting(extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: GROUP_VERSION, kind: "Greeting", metadata: { name: "hello", namespace: "default" }, spec: { anything: ["goes", 1] }, ...extra };
}

const fields = (obj: KubeObject) => greetings.validate(obj).map((e) => e.field);

test("a valid custom object has no problems whatever its spec", () => {
  assert.deepEqual(greetings.validate(greeting()), []);
  assert.deepEqual(greetings.validate(greeting({ metadata: { name: "hello.world" } })), []);
  assert.equal(greetings.phase, "custom");
  assert.equal(greetings.immutableChanges, undefined);
  assert.equal(greetings.rolloutStatus, undefined);
});

test("a custom object needs apiVersion and kind", () => {
  const problems = greetings.validate(greeting({ apiVersion: undefined, kind: undefined }));
  assert.deepEqual(problems.map((e) => e.field), ["apiVersion", "kind"]);
  assert.equal(problems[0]!.object, "Greeting/hello");
  assert.match(problems[0]!.fix, /"<group>\/<version>"/);
});

test("apiVersion must be group/version with a DNS group and version", () => {
  assert.deepEqual(fields(greeting({ apiVersion: "Sample.io/v1" })), ["apiVersion"]);
  assert.deepEqual(fields(greeting({ apiVersion: "sample.io/V1" })), ["apiVersion"]);
  assert.deepEqual(fields(greeting({ apiVersion: "a/b/c" })), ["apiVersion"]);
  assert.deepEqual(fields(greeting({ apiVersion: "/v1" })), ["apiVersion"]);
  assert.match(greetings.validate(greeting({ apiVersion: "Sample.io/v1" }))[0]!.problem, /group "Sample.io"/);
});

test("kind must be CamelCase", () => {
  const [err] = greetings.validate(greeting({ kind: "greeting" }));
  assert.equal(err!.field, "kind");
  assert.match(err!.problem, /not a CamelCase kind/);
});

test("an object of another kind than the builder's is refused", () => {
  assert.deepEqual(fields(greeting({ kind: "Person" })), ["kind"]);
  assert.deepEqual(fields(greeting({ apiVersion: "sample.foperator.gfxmonk.net/v1" })), ["apiVersion"]);
});

test("the common metadata rules apply", () => {
  assert.deepEqual(fields(greeting({ metadata: { namespace: "default" } })), ["metadata.name"]);
  assert.deepEqual(fields(greeting({ metadata: { name: "Hello", labels: { "x/": "y" } } })), ["metadata.name", 'metadata.labels["x/"]']);
});

test("core-group kinds that reach the fallback are accepted", () => {
  const accounts = customObjectRules("v1", "ServiceAccount");
  assert.deepEqual(accounts.validate({ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "operator" } }), []);
});

test("every built-in builder names its own kind and reconcile phase", () => {
  const phases = [configMapRules, secretRules, storageRules, deploymentRules, statefulSetRules, serviceRules].map((b) => `${b.kind}:${b.phase}`);
  assert.deepEqual(phases, ["ConfigMap:config", "Secret:config", "PersistentVolumeClaim:storage", "Deployment:workload", "StatefulSet:workload", "Service:service"]);
});
