import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fieldSelectorFor, selectableFields } from "../../src/testing/selectable-fields.ts";
import { StatusError } from "../../src/testing/status.ts";

/** Asserts that `fn` throws a 400 BadRequest StatusError whose message matches `message`. */
function assertBadRequest(fn: () => unknown, message: RegExp | string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
    assert.equal(err.code, 400);
    assert.equal(err.reason, "BadRequest");
    if (typeof message === "string") assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

const configMaps = { group: "", plural: "configmaps", builtin: true };
const pods = { group: "", plural: "pods", builtin: true };
const events = { group: "", plural: "events", builtin: true };
const newEvents = { group: "events.k8s.io", plural: "events", builtin: true };
const widgets = { group: "example.com", plural: "widgets", builtin: false };

const named = (name: string, namespace?: string) => ({ metadata: { name, ...(namespace ? { namespace } : {}) } });

describe("fieldSelectorFor", () => {
  it("every resource supports metadata.name and metadata.namespace", () => {
    const match = fieldSelectorFor(configMaps, "metadata.name=a,metadata.namespace=ns");
    assert.equal(match(named("a", "ns")), true);
    assert.equal(match(named("a", "other")), false);
    assert.equal(fieldSelectorFor(widgets, "metadata.name!=a")(named("b")), true);
    assert.equal(fieldSelectorFor(widgets, "metadata.namespace=")(named("cluster-scoped")), true);
    assert.deepEqual(selectableFields(configMaps), ["metadata.name", "metadata.namespace"]);
  });

  it("an empty selector matches any object", () => {
    assert.equal(fieldSelectorFor(widgets, "")({}), true);
  });

  it("pods are selectable by their scheduling and status fields", () => {
    const pod = {
      metadata: { name: "p", namespace: "ns" },
      spec: { nodeName: "n1", restartPolicy: "Always", schedulerName: "default-scheduler", serviceAccountName: "sa" },
      status: { phase: "Running", podIP: "10.0.0.1", nominatedNodeName: "n2" },
    };
    const cases: [string, boolean][] = [
      ["spec.nodeName=n1", true],
      ["spec.restartPolicy=Never", false],
      ["spec.schedulerName=default-scheduler", true],
      ["spec.serviceAccountName!=sa", false],
      ["status.phase=Running", true],
      ["status.podIP=10.0.0.1", true],
      ["status.nominatedNodeName=n2", true],
    ];
    for (const [text, expected] of cases) assert.equal(fieldSelectorFor(pods, text)(pod), expected, text);
    assert.equal(fieldSelectorFor(pods, "spec.nodeName=")({ metadata: { name: "unscheduled" }, spec: {} }), true);
  });

  it("core and events.k8s.io events are matched against the stored core/v1 shape", () => {
    const event = {
      metadata: { name: "web.1", namespace: "ns" },
      involvedObject: {
        kind: "Pod", namespace: "ns", name: "web", uid: "u1", apiVersion: "v1", resourceVersion: "7", fieldPath: "spec.containers{app}",
      },
      reason: "Started",
      reportingComponent: "kubelet",
      source: { component: "kubelet", host: "n1" },
      type: "Normal",
    };
    const text = [
      "involvedObject.kind=Pod", "involvedObject.namespace=ns", "involvedObject.name=web", "involvedObject.uid=u1",
      "involvedObject.apiVersion=v1", "involvedObject.resourceVersion=7", String.raw`involvedObject.fieldPath=spec.containers{app}`,
      "reason=Started", "reportingComponent=kubelet", "source=kubelet", "type=Normal",
    ].join(",");
    for (const resource of [events, newEvents]) {
      assert.equal(fieldSelectorFor(resource, text)(event), true);
      assert.equal(fieldSelectorFor(resource, "type=Warning")(event), false);
      assert.equal(fieldSelectorFor(resource, "source=kubelet")({ ...event, source: {} }), false);
    }
  });

  it("secrets are selectable by type and namespaces by status.phase", () => {
    const secret = { metadata: { name: "s" }, type: "kubernetes.io/tls" };
    assert.equal(fieldSelectorFor({ group: "", plural: "secrets", builtin: true }, "type=kubernetes.io/tls")(secret), true);
    const ns = { metadata: { name: "n" }, status: { phase: "Terminating" } };
    assert.equal(fieldSelectorFor({ group: "", plural: "namespaces", builtin: true }, "status.phase!=Active")(ns), true);
  });

  it("non-string field values compare by their text and objects compare as empty", () => {
    const pod = { metadata: { name: "p" }, status: { phase: { nested: true } }, spec: { nodeName: 5 } };
    assert.equal(fieldSelectorFor(pods, "status.phase=")(pod), true);
    assert.equal(fieldSelectorFor(pods, "spec.nodeName=5")(pod), true);
  });

  it("an unsupported field on a built-in resource is a 400 naming the metadata fields", () => {
    assertBadRequest(
      () => fieldSelectorFor(configMaps, "spec.x=1"),
      `"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"`,
    );
    assertBadRequest(() => fieldSelectorFor(pods, "spec.x=1"), /"spec.x" is not a known field selector/);
    assertBadRequest(() => fieldSelectorFor({ group: "apps", plural: "pods", builtin: true }, "status.phase=x"), /not a known field selector/);
    assertBadRequest(() => fieldSelectorFor(configMaps, "type=x"), /"type" is not a known field selector/);
  });

  it("an unsupported field on a custom resource is a 400 field label not supported", () => {
    assertBadRequest(() => fieldSelectorFor(widgets, "spec.x=1"), "field label not supported: spec.x");
  });

  it("bad syntax is a 400 before any field is checked", () => {
    assertBadRequest(() => fieldSelectorFor(pods, "spec.nodeName"), /can't understand 'spec.nodeName'/);
  });
});
