/**
 * The protobuf body decoder on bodies encoded here with protobufjs and Kubernetes' own
 * `generated.proto` messages: the JSON it yields, and 400 (never a crash) on broken bodies.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { decodeProtobufObject, readEnvelope } from "../../../src/testing/protobuf/decode.ts";
import { KEEP_ZERO_FIELDS } from "../../../src/testing/protobuf/keep-zero.ts";
import { INLINE_FIELDS } from "../../../src/testing/protobuf/inline-fields.ts";
import { messageNamed } from "../../../src/testing/protobuf/schema.ts";
import { MAGIC, encodeBody, envelope } from "../../support/protobuf-body.ts";
import { StatusError } from "../../../src/testing/status.ts";

/** The 400 StatusError a decode throws, with its message. */
function badRequestOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, `a StatusError, not ${String(err)}`);
    assert.equal(err.code, 400);
    assert.equal(err.reason, "BadRequest");
    return err.message;
  }
  return assert.fail("expected a 400");
}

const POD = { apiVersion: "v1", kind: "Pod" };
const CORE = "k8s.io.api.core.v1";

describe("decodeProtobufObject", () => {
  it("turns a Pod into the API's JSON: int-or-string, quantities, timestamps, maps, omitted empties", () => {
    const body = encodeBody(`${CORE}.Pod`, {
      metadata: {
        name: "web", namespace: "default", generateName: "", generation: 0,
        labels: { app: "web" }, annotations: {},
        creationTimestamp: {},
        deletionTimestamp: { seconds: 1_700_000_000, nanos: 5 },
      },
      spec: {
        containers: [{
          name: "web", image: "nginx:1.27", stdin: false, terminationMessagePath: "",
          ports: [{ containerPort: 8080, hostPort: 0, protocol: "TCP" }],
          resources: { limits: { cpu: { string: "500m" }, memory: { string: "128Mi" } }, requests: {} },
          readinessProbe: { handler: { httpGet: { path: "/healthz", port: { type: 1, strVal: "http" } } }, periodSeconds: 5 },
          livenessProbe: { handler: { tcpSocket: { port: { type: 0, intVal: 8080 } } } },
          securityContext: { runAsUser: 0, privileged: false },
          env: [{ name: "PASSWORD", valueFrom: { secretKeyRef: { localObjectReference: { name: "s" }, key: "p", optional: false } } }],
        }],
        volumes: [{ name: "cache", volumeSource: { emptyDir: {} } }, { name: "cfg", volumeSource: { configMap: { localObjectReference: { name: "c" }, defaultMode: 0 } } }],
        terminationGracePeriodSeconds: 0,
        hostNetwork: false,
      },
      status: { startTime: { seconds: 0, nanos: 0 } },
    }, POD);
    const pod = decodeProtobufObject(body, POD);
    assert.deepEqual(pod, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: "web", namespace: "default", labels: { app: "web" },
        deletionTimestamp: "2023-11-14T22:13:20Z",
      },
      spec: {
        containers: [{
          name: "web", image: "nginx:1.27",
          ports: [{ containerPort: 8080, protocol: "TCP" }],
          resources: { limits: { cpu: "500m", memory: "128Mi" } },
          readinessProbe: { httpGet: { path: "/healthz", port: "http" }, periodSeconds: 5 },
          livenessProbe: { tcpSocket: { port: 8080 } },
          securityContext: { runAsUser: 0, privileged: false },
          env: [{ name: "PASSWORD", valueFrom: { secretKeyRef: { name: "s", key: "p", optional: false } } }],
        }],
        volumes: [{ name: "cache", emptyDir: {} }, { name: "cfg", configMap: { name: "c", defaultMode: 0 } }],
        terminationGracePeriodSeconds: 0,
      },
      status: { startTime: "1970-01-01T00:00:00Z" },
    });
  });

  it("writes Secret data and ConfigMap binaryData as base64, and keeps empty map values", () => {
    const secret = decodeProtobufObject(encodeBody(`${CORE}.Secret`, {
      metadata: { name: "s" }, type: "Opaque", data: { a: Buffer.from("b"), bin: Uint8Array.from([0, 1, 255]), empty: new Uint8Array() },
    }, { apiVersion: "v1", kind: "Secret" }), { apiVersion: "v1", kind: "Secret" });
    assert.deepEqual(secret.data, { a: "Yg==", bin: "AAH/", empty: "" });
    assert.equal(secret.type, "Opaque");

    const cm = decodeProtobufObject(encodeBody(`${CORE}.ConfigMap`, {
      metadata: { name: "c" }, data: { text: "", k: "v" }, binaryData: { blob: Uint8Array.from([0xde, 0xad]) },
    }, { apiVersion: "v1", kind: "ConfigMap" }), { apiVersion: "v1", kind: "ConfigMap" });
    assert.deepEqual(cm.data, { text: "", k: "v" });
    assert.deepEqual(cm.binaryData, { blob: "3q0=" });
  });

  it("writes MicroTime with microseconds and managedFields' FieldsV1 as the JSON it holds", () => {
    const event = decodeProtobufObject(encodeBody("k8s.io.api.events.v1.Event", {
      metadata: {
        name: "e",
        managedFields: [{ manager: "m", operation: "Update", fieldsType: "FieldsV1", fieldsV1: { Raw: Buffer.from('{"f:note":{}}') } }],
      },
      eventTime: { seconds: 1_700_000_000, nanos: 123_456_789 },
      reason: "Started",
    }, { apiVersion: "events.k8s.io/v1", kind: "Event" }), { apiVersion: "events.k8s.io/v1", kind: "Event" });
    assert.equal(event.eventTime, "2023-11-14T22:13:20.123456Z");
    assert.deepEqual((event.metadata as any).managedFields, [{ manager: "m", operation: "Update", fieldsType: "FieldsV1", fieldsV1: { "f:note": {} } }]);
  });

  it("keeps an explicit zero where the Go field is a pointer (replicas: 0) and keeps empty structs", () => {
    const deploy = decodeProtobufObject(encodeBody("k8s.io.api.apps.v1.Deployment", {
      metadata: { name: "d" },
      spec: { replicas: 0, minReadySeconds: 0, strategy: {}, template: { spec: { containers: [{ name: "c", image: "i", resources: {} }] } } },
      status: {},
    }, { apiVersion: "apps/v1", kind: "Deployment" }), { apiVersion: "apps/v1", kind: "Deployment" });
    assert.deepEqual(deploy.spec, { replicas: 0, strategy: {}, template: { spec: { containers: [{ name: "c", image: "i", resources: {} }] } } });
    assert.deepEqual(deploy.status, {});
  });

  it("takes apiVersion and kind from the envelope, or leaves them to the URL's kind when empty", () => {
    const body = encodeBody(`${CORE}.ConfigMap`, { metadata: { name: "c" } }, { apiVersion: "", kind: "" });
    assert.deepEqual(readEnvelope(body).kind, "");
    assert.deepEqual(decodeProtobufObject(body, { apiVersion: "v1", kind: "ConfigMap" }), { metadata: { name: "c" } });
  });

  it("names every kept-zero and inline field after a real field of a real message", () => {
    for (const entry of [...KEEP_ZERO_FIELDS, ...INLINE_FIELDS]) {
      const i = entry.lastIndexOf(".");
      const type = messageNamed(entry.slice(0, i));
      assert.ok(type.fields[entry.slice(i + 1)], `${entry} is a field`);
    }
  });

  it("answers 400 for a body without the k8s\\0 prefix", () => {
    assert.match(badRequestOf(() => decodeProtobufObject(Buffer.from('{"kind":"Pod"}'), POD)), /does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/);
    assert.match(badRequestOf(() => decodeProtobufObject(new Uint8Array(), POD)), /does not appear to be a protobuf message/);
  });

  it("answers 400 for a truncated envelope or object, naming what could not be read", () => {
    const body = encodeBody(`${CORE}.Pod`, { metadata: { name: "web", labels: { app: "web" } } }, POD);
    assert.match(badRequestOf(() => decodeProtobufObject(body.subarray(0, body.length - 12), POD)), /unable to decode the protobuf body as runtime\.Unknown envelope/);
    const pod = messageNamed(`${CORE}.Pod`);
    const raw = pod.encode(pod.fromObject({ metadata: { name: "web", labels: { app: "web" } } })).finish();
    const truncated = envelope({ typeMeta: POD, raw: raw.subarray(0, raw.length - 3) });
    assert.match(badRequestOf(() => decodeProtobufObject(truncated, POD)), /unable to decode the protobuf body as Pod/);
  });

  it("answers 400 for garbage after the prefix, an unknown kind and a compressed body", () => {
    const garbage = Buffer.concat([MAGIC, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01])]);
    assert.match(badRequestOf(() => decodeProtobufObject(garbage, POD)), /unable to decode the protobuf body/);
    const widget = encodeBody(`${CORE}.ConfigMap`, {}, { apiVersion: "example.com/v1", kind: "Widget" });
    assert.match(badRequestOf(() => decodeProtobufObject(widget, POD)), /no kind "Widget" is registered for version "example\.com\/v1"/);
    const gzip = envelope({ typeMeta: POD, raw: new Uint8Array(), contentEncoding: "gzip" });
    assert.match(badRequestOf(() => decodeProtobufObject(gzip, POD)), /unsupported content encoding "gzip"/);
  });
});
