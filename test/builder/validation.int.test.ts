import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, BuilderValidationErrors, ResourceClient } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";

const NS = "checked";

/** The validation errors of a rejected pass. */
async function rejected(pass: Promise<unknown>): Promise<BuilderValidationErrors> {
  try {
    await pass;
  } catch (err) {
    assert.ok(err instanceof BuilderValidationErrors, String(err instanceof Error ? err.stack : err));
    return err;
  }
  assert.fail("the pass did not reject");
}

/** What an untyped (JavaScript) caller may pass: the types would refuse it. */
const untyped = (value: unknown): any => value;

describe("Builder input an untyped caller gets wrong (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "validation-test" });
    owner = await createDataApp(cluster.url, NS, "demo");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => cluster.requests.clear());

  it(".object() without apiVersion names the field and an example, before any request", async () => {
    const err = await rejected(new Builder({ client, owner }).object(untyped({ kind: "Greeting", metadata: { name: "hello" } })).reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["Greeting/hello apiVersion"]);
    assert.match(err.errors[0]!.problem, /is required/);
    assert.match(err.errors[0]!.fix, /"example\.com\/v1"/);
    assert.equal(cluster.requests.count(), 0);
  });

  it(".object() without kind, or without both, names each field", async () => {
    const noKind = await rejected(new Builder({ client, owner }).object(untyped({ apiVersion: "example.com/v1", metadata: { name: "hello" } })).reconcile());
    assert.deepEqual(noKind.errors.map((e) => e.field), ["kind"]);
    const neither = await rejected(new Builder({ client, owner }).object(untyped({ metadata: { name: "hello" } })).plan());
    assert.deepEqual(neither.errors.map((e) => e.field), ["apiVersion", "kind"]);
    assert.equal(cluster.requests.count(), 0);
  });

  it("an object that is not an object is a problem, not a TypeError", async () => {
    const err = await rejected(new Builder({ client, owner }).object(untyped(null)).configMap(untyped(undefined)).reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["Builder.object() object", "Builder.configMap() object"]);
    assert.match(err.errors[0]!.problem, /is null, not an object/);
    assert.equal(cluster.requests.count(), 0);
  });

  it("a per-kind method supplies apiVersion and kind when they are left out", async () => {
    const result = await new Builder({ client, owner, prune: false }).configMap({ metadata: { name: "bare" }, data: { a: "1" } }).reconcile();
    assert.equal(result.ok, true, result.errors.map((e) => e.message).join("\n"));
    assert.deepEqual(result.objects.map((o) => `${o.action} ${o.apiVersion} ${o.kind}/${o.name}`), ["created v1 ConfigMap/bare"]);
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/bare`)).code, 200);
  });

  it("a per-kind method given another kind names kind and the method for it, once", async () => {
    const err = await rejected(new Builder({ client, owner })
      .configMap(untyped({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" } }))
      .service(untyped({ kind: "Job", metadata: { name: "batch" }, spec: { ports: [{ port: 80 }] } }))
      .reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`), ["ConfigMap/web kind", "Service/batch kind"]);
    assert.equal(err.errors[0]!.message,
      'ConfigMap/web: kind: is "Deployment", but .configMap() takes a ConfigMap (apiVersion "v1"). Fix: add a Deployment with .deployment(), or leave kind out: .configMap() sets it');
    assert.match(err.errors[1]!.fix, /add other kinds with \.object\(\)/);
    assert.equal(cluster.requests.count(), 0);
  });

  it("a per-kind method given another apiVersion names apiVersion and the right one", async () => {
    const err = await rejected(new Builder({ client, owner })
      .deployment(untyped({ apiVersion: "extensions/v1beta1", metadata: { name: "web" } }))
      .reconcile());
    const apiVersion = err.errors.filter((e) => e.field === "apiVersion");
    assert.equal(apiVersion.length, 1, err.message);
    assert.equal(apiVersion[0]!.message,
      'Deployment/web: apiVersion: is "extensions/v1beta1", but .deployment() takes a Deployment (apiVersion "apps/v1"). Fix: set apiVersion: "apps/v1", or leave it out: .deployment() sets it');
    assert.equal(cluster.requests.count(), 0);
  });
  it("refuses NaN, Infinity and cycles anywhere, naming each field, before the first request", async () => {
    const cyclic: any = { greeting: "hi" };
    cyclic.self = cyclic;
    const err = await rejected(new Builder({ client, owner })
      .configMap({ metadata: { name: "first" }, data: { a: "1" } })
      .deployment(untyped({ metadata: { name: "web" }, spec: {
        replicas: Number.NaN,
        selector: { matchLabels: { app: "web" } },
        template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx", resources: { limits: { memory: Number.POSITIVE_INFINITY } } }] } },
      } }))
      .object(untyped({ apiVersion: "example.com/v1", kind: "DataApp", metadata: { name: "child" }, spec: { nested: cyclic, ratio: -Infinity } }))
      .reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`).sort(), [
      "DataApp/child spec.nested.self",
      "DataApp/child spec.ratio",
      "Deployment/web spec.replicas",
      "Deployment/web spec.template.spec.containers[0].resources.limits.memory",
    ]);
    assert.match(err.message, /spec\.replicas: is NaN, not a JSON number/);
    assert.match(err.message, /spec\.nested\.self: refers back to an object that contains it \(a cycle\)/);
    assert.equal(cluster.requests.count(), 0, "nothing is read or written");
  });

  it("says a non-string image must be a string, not that it is missing", async () => {
    const err = await rejected(new Builder({ client, owner }).deployment(untyped({ metadata: { name: "web" }, spec: {
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: 42 }] } },
    } })).reconcile());
    assert.deepEqual(err.errors.map((e) => e.field), ["spec.template.spec.containers[0].image"]);
    assert.match(err.errors[0]!.problem, /is a number.*must be a string/);
    assert.doesNotMatch(err.message, /missing/);
  });
  it("checks the common labels option like an object's labels, before any request", async () => {
    const err = await rejected(new Builder({ client, owner, labels: untyped({ tier: 42, "bad key!": "x" }) }).configMap({ metadata: { name: "c" } }).reconcile());
    assert.deepEqual(err.errors.map((e) => `${e.object} ${e.field}`).sort(), ["Builder labels.tier", 'Builder labels["bad key!"]']);
    assert.equal(cluster.requests.count(), 0);
  });
});
