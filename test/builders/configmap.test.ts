import { test } from "node:test";
import assert from "node:assert/strict";
import { configMapRules } from "../../builders/configmap.ts";
import type { KubeObject } from "../../src/client/types.ts";

function configMap(extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web-config", namespace: "shop" }, data: { "app.properties": "port=8080" }, ...extra };
}

const fields = (obj: KubeObject) => configMapRules.validate(obj).map((e) => e.field);

test("a valid ConfigMap has no problems", () => {
  assert.deepEqual(configMapRules.validate(configMap({ binaryData: { "logo.png": "iVBORw0KGgo=" }, immutable: false })), []);
  assert.deepEqual(configMapRules.validate({ metadata: { name: "empty" } }), []);
  assert.equal(configMapRules.phase, "config");
});

test("a ConfigMap without a name is told to set metadata.name", () => {
  const [err] = configMapRules.validate({ kind: "ConfigMap", metadata: {} });
  assert.equal(err!.message, 'ConfigMap/(unnamed): metadata.name: is required. Fix: set metadata.name to a DNS-1123 subdomain ' +
    "(start and end with a lower-case letter or digit; a-z, 0-9, '-' and '.'; at most 253 characters), e.g. \"my-app\"");
});

test("keys must be letters, digits, dash, underscore and dot", () => {
  const problems = configMapRules.validate(configMap({ data: { "conf/app": "x", "..hidden": "y", ok_key: "z" } }));
  assert.deepEqual(problems.map((e) => e.field), ['data["conf/app"]', 'data["..hidden"]']);
  assert.match(problems[0]!.message, /key "conf\/app" must consist of letters, digits/);
  assert.match(problems[0]!.fix, /"conf_app"/);
});

test("keys longer than 253 characters are refused", () => {
  const key = "k".repeat(254);
  assert.match(configMapRules.validate(configMap({ data: { [key]: "v" } }))[0]!.problem, /at most 253/);
});

test("a key in both data and binaryData is refused", () => {
  const problems = configMapRules.validate(configMap({ binaryData: { "app.properties": "aGk=" } }));
  assert.deepEqual(problems.map((e) => e.field), ['binaryData["app.properties"]']);
  assert.match(problems[0]!.message, /also set in data. Fix: keep each key in only one of data and binaryData/);
});

test("data values must be strings", () => {
  const problems = configMapRules.validate(configMap({ data: { port: 8080 } }));
  assert.deepEqual(problems.map((e) => e.field), ["data.port"]);
  assert.match(problems[0]!.message, /value is a number, not a string/);
});

test("binaryData values must be base64", () => {
  assert.deepEqual(fields(configMap({ binaryData: { blob: "not base64!" } })), ["binaryData.blob"]);
  assert.deepEqual(fields(configMap({ binaryData: { blob: "aGk" } })), ["binaryData.blob"]);
});

test("data and binaryData must be objects", () => {
  assert.deepEqual(fields(configMap({ data: ["a"], binaryData: "x" })), ["data", "binaryData"]);
});

test("more than 1 MiB of data is refused", () => {
  const half = "x".repeat(600 * 1024);
  const problems = configMapRules.validate(configMap({ data: { a: half }, binaryData: { b: Buffer.alloc(600 * 1024).toString("base64") } }));
  assert.deepEqual(problems.map((e) => e.field), ["data + binaryData"]);
  assert.match(problems[0]!.problem, /exceeds the 1 MiB/);
  assert.deepEqual(configMapRules.validate(configMap({ data: { a: "x".repeat(1024 * 1024) } })), []);
});

test("a ConfigMap passed with another kind is refused", () => {
  assert.deepEqual(fields({ ...configMap(), kind: "Secret", apiVersion: "v2" }), ["kind", "apiVersion"]);
});

test("immutable must be a boolean", () => {
  assert.deepEqual(fields(configMap({ immutable: "yes" })), ["immutable"]);
});

test("a mutable live ConfigMap allows any change", () => {
  assert.deepEqual(configMapRules.immutableChanges!(configMap(), configMap({ data: { other: "x" } })), []);
});

test("an immutable live ConfigMap refuses data changes but not an identical apply", () => {
  const live = configMap({ immutable: true });
  assert.deepEqual(configMapRules.immutableChanges!(live, configMap({ immutable: true })), []);
  assert.deepEqual(configMapRules.immutableChanges!(live, configMap({ immutable: true, data: { x: "1" } })), ["data"]);
  assert.deepEqual(configMapRules.immutableChanges!(live, configMap({ immutable: true, binaryData: { b: "aGk=" } })), ["binaryData"]);
  assert.deepEqual(configMapRules.immutableChanges!(live, configMap({ immutable: false })), ["immutable"]);
});
