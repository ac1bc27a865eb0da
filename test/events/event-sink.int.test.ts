import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { KubeConfig } from "@kubernetes/client-node";
import { httpEventSink } from "../../src/events/index.ts";
import type { HttpEventSink } from "../../src/events/index.ts";
import { RequestCounter } from "../../src/client/index.ts";
import { ApiError, InvalidError, NotFoundError, OperatorRuntimeError } from "../../src/errors.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";

const event = (name: string) => ({
  apiVersion: "events.k8s.io/v1", kind: "Event", metadata: { name, namespace: "default" },
  eventTime: "2026-03-01T10:00:00.000000Z", reportingController: "example.com/op", reportingInstance: "op-0",
  action: "Create", reason: "Created", note: "made it", type: "Normal",
  regarding: { apiVersion: "v1", kind: "ConfigMap", name: "cm", namespace: "default" },
});

describe("httpEventSink against LocalCluster", () => {
  let cluster: LocalCluster;
  let sink: HttpEventSink;
  before(async () => {
    cluster = await LocalCluster.start();
    sink = httpEventSink(cluster.kubeConfig);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("creates an Event and merge-patches its series through events.k8s.io/v1", async () => {
    const created = await sink.create(event("cm.1"));
    assert.equal(created.metadata!.name, "cm.1");
    assert.ok(created.metadata!.uid);
    const patched = await sink.patch("default", "cm.1", { series: { count: 2, lastObservedTime: "2026-03-01T10:01:00.000000Z" } });
    assert.deepEqual(patched.series, { count: 2, lastObservedTime: "2026-03-01T10:01:00.000000Z" });
    assert.equal(cluster.requests.count({ verb: "create", resource: "events", code: 201 }), 1);
    assert.equal(cluster.requests.count({ verb: "patch", resource: "events", code: 200 }), 1);
  });

  it("sends through the client transport, so its requests are counted like a ResourceClient's", async () => {
    const shared = new RequestCounter();
    const counted = httpEventSink(cluster.kubeConfig, { requests: shared });
    assert.equal(counted.requests, shared);
    await counted.create(event("cm.6"));
    await counted.patch("default", "cm.6", { series: { count: 2, lastObservedTime: "2026-03-01T10:01:00.000000Z" } });
    await counted.patch("default", "gone", { series: { count: 2, lastObservedTime: "2026-03-01T10:01:00.000000Z" } }).catch(() => undefined);
    assert.deepEqual(
      shared.all().map((r) => `${r.verb} ${r.resource} ${r.namespace}/${r.name} ${r.code}`),
      ["create events default/cm.6 201", "patch events default/cm.6 200", "patch events default/gone 404"],
    );
    assert.ok(shared.all().every((r) => r.durationMs >= 0));
    assert.equal(shared.writes(), 3);
  });

  it("rejects a non-2xx answer with a typed ApiError carrying the code and the Status message", async () => {
    const missing = await sink.patch("default", "nope", { series: { count: 2, lastObservedTime: "2026-03-01T10:01:00.000000Z" } }).catch((e) => e);
    assert.ok(missing instanceof NotFoundError);
    assert.equal(missing.code, 404);
    assert.match(missing.message, /not found/);

    const { eventTime: _omitted, ...withoutTime } = event("cm.2");
    const invalid = await sink.create(withoutTime).catch((e) => e);
    assert.ok(invalid instanceof InvalidError);
    assert.equal(invalid.code, 422);
    assert.match(invalid.message, /eventTime: Required value/);

    cluster.inject({ verb: "create", resource: "events", code: 500, message: "boom" });
    const server = await sink.create(event("cm.3")).catch((e) => e);
    assert.ok(server instanceof ApiError);
    assert.equal(server.code, 500);
    assert.match(server.message, /boom/);
  });

  it("gives up on a request after timeoutMs", async () => {
    cluster.inject({ verb: "create", resource: "events", latencyMs: 300 });
    const impatient = httpEventSink(cluster.kubeConfig, { timeoutMs: 30 });
    const err = await impatient.create(event("cm.4")).catch((e) => e);
    assert.ok(err instanceof OperatorRuntimeError);
    assert.ok(!(err instanceof ApiError), "a transport error, not an API answer");
    assert.deepEqual(impatient.requests.filter({ verb: "create" }).map((r) => r.code), [0], "counted, with no answer");
  });

  it("refuses a kubeconfig without a current cluster", async () => {
    const err = await httpEventSink(new KubeConfig()).create(event("cm.5")).catch((e) => e);
    assert.ok(err instanceof OperatorRuntimeError);
  });
});
