import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { goTypeOfKind } from "../../src/testing/openapi/decode-schema.ts";
import { decodeBuiltin, strictDecodingError, unknownFieldWarning } from "../../src/testing/openapi/decode-builtin.ts";
import { typedPatchError, typedPatchErrors } from "../../src/testing/openapi/decode-apply.ts";
import type { KubeObject, ResourceType } from "../../src/testing/resource-type.ts";
import { checkPatchedObject, decodeBody } from "../../src/testing/kind-rules.ts";
import type { RuleContext } from "../../src/testing/kind-rules.ts";
import { StatusError } from "../../src/testing/status.ts";

const deployments = goTypeOfKind("apps", "v1", "Deployment")!;
const configMaps = goTypeOfKind("", "v1", "ConfigMap")!;
const services = goTypeOfKind("", "v1", "Service")!;
const secrets = goTypeOfKind("", "v1", "Secret")!;
const pods = goTypeOfKind("", "v1", "Pod")!;

function deployment(spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web" },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx", ...container }] } },
      ...spec,
    },
  };
}

describe("decodeBuiltin: a body read into the kind's Go struct", () => {
  it("knows built-in kinds by group, version and kind, and no others", () => {
    assert.equal(deployments.goType, "v1.Deployment");
    assert.equal(goTypeOfKind("example.com", "v1", "Widget"), undefined);
    assert.equal(goTypeOfKind("apps", "v1", "Nope"), undefined);
  });

  it("drops unknown fields and names them as sigs.k8s.io/json does (dots, list indexes)", () => {
    const body = deployment({ foo: { bar: 1 } }, { bogus: true });
    (body.metadata as Record<string, unknown>).typo = "x";
    (body as Record<string, unknown>).Spec = {};
    const { object, unknownFields, typeErrors } = decodeBuiltin(deployments, body);
    assert.deepEqual(unknownFields, ["metadata.typo", "spec.template.spec.containers[0].bogus", "spec.foo", "Spec"]);
    assert.deepEqual(typeErrors, []);
    const spec = object.spec as any;
    assert.equal(spec.foo, undefined);
    assert.deepEqual(spec.template.spec.containers, [{ name: "c", image: "nginx" }]);
    assert.deepEqual(object.metadata, { name: "web" });
    assert.ok(!("Spec" in object), "field names match case-sensitively");
    assert.equal((body.spec as any).foo.bar, 1, "the input is not modified");
  });

  it("reports a ConfigMap's stray spec, and nothing inside it", () => {
    const r = decodeBuiltin(configMaps, { metadata: { name: "c" }, spec: { x: 1, y: { z: 2 } }, data: { k: "v" } });
    assert.deepEqual(r.unknownFields, ["spec"]);
    assert.deepEqual(r.object, { metadata: { name: "c" }, data: { k: "v" } });
  });

  it("names map keys in unknown-field paths and reports each path once", () => {
    const volume = { name: "v", configMap: { name: "c", bogus: 1 }, extra: 1 };
    const pod = { metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "x" }], volumes: [volume, volume] } };
    assert.deepEqual(decodeBuiltin(pods, pod).unknownFields, [
      "spec.volumes[0].configMap.bogus",
      "spec.volumes[0].extra",
      "spec.volumes[1].configMap.bogus",
      "spec.volumes[1].extra",
    ]);
    const many = { metadata: { name: "c" }, ...Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, i])) };
    assert.equal(decodeBuiltin(configMaps, many).unknownFields.length, 100);
  });

  it("words type errors as Go's decoder: the struct, the JSON field path without indexes, the Go type", () => {
    const cases: [KubeObject, string][] = [
      [deployment({ replicas: "three" }), "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"],
      [deployment({ replicas: 1.5 }), "json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32"],
      [deployment({ paused: "yes" }), "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool"],
      [deployment({ template: "x" }), "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec"],
      [deployment({}, { ports: [{ containerPort: "80" }] }),
        "json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32"],
      [deployment({}, { args: "run" }), "json: cannot unmarshal string into Go struct field Container.spec.template.spec.containers.args of type []string"],
      [deployment({}, { args: [1] }), "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.args of type string"],
      [deployment({}, { env: {} }), "json: cannot unmarshal object into Go struct field Container.spec.template.spec.containers.env of type []v1.EnvVar"],
      [{ metadata: { name: "c", labels: { a: 1 } } } as unknown as KubeObject, "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"],
    ];
    for (const [body, message] of cases) {
      const type = body.kind === "Deployment" ? deployments : configMaps;
      assert.deepEqual(decodeBuiltin(type, body).typeErrors[0], message);
    }
  });

  it("takes both forms of IntOrString and Quantity, and reports their own decoders' errors first", () => {
    const svc = (targetPort: unknown) => ({ metadata: { name: "s" }, spec: { ports: [{ port: 80, targetPort }] } });
    assert.deepEqual(decodeBuiltin(services, svc(8080)).typeErrors, []);
    assert.deepEqual(decodeBuiltin(services, svc("http")).typeErrors, []);
    assert.deepEqual(decodeBuiltin(services, svc(true)).typeErrors, [
      "json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32",
    ]);
    const limits = (cpu: unknown) => deployment({}, { resources: { limits: { cpu } } });
    assert.deepEqual(decodeBuiltin(deployments, limits(1)).typeErrors, []);
    assert.deepEqual(decodeBuiltin(deployments, limits("500m")).typeErrors, []);
    const bad = decodeBuiltin(deployments, { ...limits("lots"), spec: { ...(limits("lots").spec as object), replicas: "x" } });
    assert.equal(bad.typeErrors[0], "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });

  it("checks []byte values as standard base64", () => {
    assert.deepEqual(decodeBuiltin(secrets, { metadata: { name: "s" }, data: { k: "dg==" } }).typeErrors, []);
    assert.deepEqual(decodeBuiltin(secrets, { metadata: { name: "s" }, data: { k: "!!" } }).typeErrors, ["illegal base64 data at input byte 0"]);
  });

  it("leaves out what Go's encoder omits: empty optional maps and lists, optional nulls; keeps empty structs and required fields", () => {
    const r = decodeBuiltin(configMaps, { metadata: { generateName: "gen-", labels: {}, finalizers: [] }, data: {}, binaryData: null });
    assert.deepEqual(r.object, { metadata: { generateName: "gen-" } });
    const d = decodeBuiltin(deployments, deployment({}, { securityContext: {}, env: [], volumeMounts: null }));
    const container = (d.object.spec as any).template.spec.containers[0];
    assert.deepEqual(container, { name: "c", image: "nginx", securityContext: {} });
    // `containers` is required (no omitempty): an empty list stays.
    const empty = decodeBuiltin(pods, { metadata: { name: "p" }, spec: { containers: [] } });
    assert.deepEqual((empty.object.spec as any).containers, []);
    // A null value of a string map is Go's zero value.
    assert.deepEqual(decodeBuiltin(configMaps, { metadata: { name: "c" }, data: { a: null, b: "1" } }).object.data, { a: "", b: "1" });
  });

  it("keeps free-form values (RawExtension, FieldsV1) as they are", () => {
    const fields = { "f:data": { "f:x": {}, ".": {} } };
    const cm = { metadata: { name: "c", managedFields: [{ manager: "m", operation: "Update", fieldsType: "FieldsV1", fieldsV1: fields }] } };
    const r = decodeBuiltin(configMaps, cm);
    assert.deepEqual(r.unknownFields, []);
    assert.deepEqual((r.object.metadata as any).managedFields[0].fieldsV1, fields);
  });

  it("decodes a body of nearly 3 MiB in linear time", () => {
    const data = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`key-${i}`, "v".repeat(90)]));
    const containers = Array.from({ length: 2_000 }, (_, i) => ({ name: `c${i}`, image: "x", env: [{ name: "E", value: "1" }], ports: [{ containerPort: 80 }] }));
    const started = performance.now();
    decodeBuiltin(configMaps, { metadata: { name: "big" }, data });
    decodeBuiltin(pods, { metadata: { name: "big" }, spec: { containers } });
    assert.ok(performance.now() - started < 2_000, "well under the seconds a quadratic walk takes");
  });

  it("words the warning and the Strict error as kube-apiserver", () => {
    assert.equal(unknownFieldWarning("spec"), 'unknown field "spec"');
    assert.equal(strictDecodingError(["spec", "spec.template.spec.containers[0].bogus"]),
      'strict decoding error: unknown field "spec", unknown field "spec.template.spec.containers[0].bogus"');
  });
});

describe("typedPatchErrors: server-side apply's typed conversion", () => {
  it("names fields with structured-merge-diff paths: keyed list items by their keys, the first unknown member of each object", () => {
    const body = deployment({ foo: 1, bar: 2 }, { bogus: 1, ports: [{ containerPort: 80, protocol: "TCP", x: 1 }] });
    assert.deepEqual(typedPatchErrors(deployments, body), [
      '.spec.template.spec.containers[name="c"].bogus: field not declared in schema',
      ".spec.foo: field not declared in schema",
    ]);
    const ports = typedPatchErrors(deployments, deployment({}, { ports: [{ containerPort: 80, x: 1 }] }));
    assert.deepEqual(ports, ['.spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].x: field not declared in schema']);
  });

  it("reports numeric mismatches, and nothing for a well-typed configuration", () => {
    assert.deepEqual(typedPatchErrors(deployments, deployment({ replicas: "three" })), [".spec.replicas: expected numeric (int or float), got string"]);
    assert.deepEqual(typedPatchErrors(deployments, deployment()), []);
  });

  it("answers kube-apiserver's 500 without a reason, one error or several", () => {
    const err = typedPatchError(deployments, deployment({ foo: 1 }), { group: "apps", version: "v1", kind: "Deployment" }, "", "web")!;
    assert.equal(err.code, 500);
    assert.deepEqual(err.toStatus(), {
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", code: 500,
      message: "failed to create typed patch object (/web; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema",
    });
    const two = typedPatchError(configMaps, { metadata: { name: "c", x: 1 }, spec: {} }, { group: "", version: "v1", kind: "ConfigMap" }, "ns", "c")!;
    assert.equal(two.message, "failed to create typed patch object (ns/c; /v1, Kind=ConfigMap): errors:\n" +
      "  .metadata.x: field not declared in schema\n  .spec: field not declared in schema");
    assert.equal(typedPatchError(configMaps, { metadata: { name: "c" } }, { group: "", version: "v1", kind: "ConfigMap" }, "", "c"), undefined);
  });
});

describe("kind-rules: decoding wired into the write path", () => {
  const configMapType = { kind: "ConfigMap", group: "", version: "v1", builtin: true } as unknown as ResourceType;
  const context = (fieldValidation: "Ignore" | "Warn" | "Strict"): RuleContext => ({
    now: new Date(), fieldValidation, warnings: [], allocateClusterIP: () => "10.96.0.1",
  });

  it("decodeBody decodes in place once and answers unknown fields per fieldValidation", () => {
    const warn = context("Warn");
    const metadata = { name: "c", typo: 1 };
    const obj: KubeObject = { metadata, data: {}, spec: { x: 1 } } as KubeObject;
    decodeBody(configMapType, obj, warn);
    assert.deepEqual(obj, { metadata: { name: "c" } });
    assert.equal(obj.metadata, metadata, "the object and its members keep their identity");
    assert.deepEqual(warn.warnings, ['unknown field "metadata.typo"', 'unknown field "spec"']);
    const ignore = context("Ignore");
    decodeBody(configMapType, { metadata: { name: "c" }, spec: {} } as KubeObject, ignore);
    assert.deepEqual(ignore.warnings, []);
    assert.throws(() => decodeBody(configMapType, { metadata: { name: "c" }, spec: {} } as KubeObject, context("Strict")), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.code, 400);
      assert.equal(err.message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"');
      return true;
    });
  });

  it("checkPatchedObject answers a patched object that does not decode with the 422 on `patch`", () => {
    const patched = { metadata: { name: "c" }, data: { a: "1" }, spec: {} } as KubeObject;
    checkPatchedObject(configMapType, patched, "Warn");
    assert.throws(() => checkPatchedObject(configMapType, patched, "Strict"), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.code, 422);
      assert.equal(err.message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(JSON.stringify(patched))}: strict decoding error: unknown field "spec"`);
      assert.deepEqual(err.details?.causes?.map((c) => c.field), ["patch"]);
      return true;
    });
  });
});
