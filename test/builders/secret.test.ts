import { test } from "node:test";
import assert from "node:assert/strict";
import { secretRules } from "../../builders/secret.ts";
import type { KubeObject } from "../../src/client/types.ts";

function secret(extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: "v1", kind: "Secret", metadata: { name: "db-credentials" }, type: "Opaque", data: { username: "YWRtaW4=" }, ...extra };
}

const fields = (obj: KubeObject) => secretRules.validate(obj).map((e) => e.field);

test("a valid Secret has no problems", () => {
  assert.deepEqual(secretRules.validate(secret({ stringData: { password: "s3cret" } })), []);
  assert.deepEqual(secretRules.validate({ metadata: { name: "empty" } }), []);
  assert.equal(secretRules.phase, "config");
});

test("data values must be base64 and the message never shows the value", () => {
  const problems = secretRules.validate(secret({ data: { password: "hunter2!" } }));
  assert.deepEqual(problems.map((e) => e.field), ["data.password"]);
  assert.match(problems[0]!.message, /not valid base64/);
  assert.doesNotMatch(problems[0]!.message, /hunter2/);
});

test("stringData values must be strings", () => {
  assert.deepEqual(fields(secret({ stringData: { port: 5432 } })), ["stringData.port"]);
});

test("keys of data and stringData follow the ConfigMap key rules", () => {
  assert.deepEqual(fields(secret({ data: { "a b": "eA==" }, stringData: { "x/y": "z" } })), ['data["a b"]', 'stringData["x/y"]']);
});

test("a key in both data and stringData is refused", () => {
  const problems = secretRules.validate(secret({ stringData: { username: "root" } }));
  assert.deepEqual(problems.map((e) => e.field), ["stringData.username"]);
  assert.doesNotMatch(problems[0]!.message, /root/);
});

test("type must be a non-empty string", () => {
  assert.deepEqual(fields(secret({ type: 3 })), ["type"]);
  assert.deepEqual(fields(secret({ type: "" })), ["type"]);
});

test("built-in secret types need their keys", () => {
  const tls = secretRules.validate(secret({ type: "kubernetes.io/tls", data: { "tls.crt": "eA==" } }));
  assert.deepEqual(tls.map((e) => e.field), ['data["tls.key"]']);
  assert.match(tls[0]!.message, /needs the key "tls.key"/);
  assert.deepEqual(fields(secret({ type: "kubernetes.io/tls", data: {}, stringData: { "tls.crt": "c", "tls.key": "k" } })), []);
  assert.deepEqual(fields(secret({ type: "kubernetes.io/basic-auth", data: { password: "eA==" } })), []);
  assert.deepEqual(fields(secret({ type: "kubernetes.io/dockerconfigjson", data: {} })), ['data[".dockerconfigjson"]']);
  assert.deepEqual(fields(secret({ type: "example.com/custom", data: {} })), []);
});

test("more than 1 MiB of secret data is refused", () => {
  assert.deepEqual(fields(secret({ stringData: { big: "x".repeat(1024 * 1024) } })), ["data + stringData"]);
});

test("a Secret's type cannot change, but omitting it is not a change", () => {
  assert.deepEqual(secretRules.immutableChanges!(secret(), secret({ type: "kubernetes.io/tls" })), ["type"]);
  assert.deepEqual(secretRules.immutableChanges!(secret(), secret({ type: undefined })), []);
  assert.deepEqual(secretRules.immutableChanges!(secret({ type: undefined }), secret()), []);
});

test("an immutable live Secret refuses data changes, comparing stringData as stored", () => {
  const live = secret({ immutable: true, data: { username: "YWRtaW4=" } });
  const same = secret({ immutable: true, data: undefined, stringData: { username: "admin" } });
  assert.deepEqual(secretRules.immutableChanges!(live, same), []);
  const changed = secret({ immutable: true, data: undefined, stringData: { username: "root" } });
  assert.deepEqual(secretRules.immutableChanges!(live, changed), ["data"]);
  assert.deepEqual(secretRules.immutableChanges!(secret(), changed), []);
});
