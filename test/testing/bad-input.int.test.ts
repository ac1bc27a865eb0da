import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

describe("LocalCluster answers bad input with the real codes and keeps its data", () => {
  let cluster: LocalCluster;
  const cmPath = "/api/v1/namespaces/default/configmaps";
  before(async () => {
    cluster = await LocalCluster.start();
    await raw(cluster.url, "POST", cmPath, { metadata: { name: "keep" }, data: { k: "v" } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("malformed JSON → 400 Status", async () => {
    const r = await raw(cluster.url, "POST", cmPath, "{not json");
    assert.equal(r.code, 400);
    assert.equal(r.headers.get("content-type"), "application/json");
    assert.equal(r.body.kind, "Status");
    assert.equal(r.body.reason, "BadRequest");
  });

  it("wrong content type → 415", async () => {
    const r = await raw(cluster.url, "POST", cmPath, "data", "text/plain");
    assert.equal(r.code, 415);
    assert.equal(r.body.reason, "UnsupportedMediaType");
    const patch = await raw(cluster.url, "PATCH", `${cmPath}/keep`, "{}", "text/plain");
    assert.equal(patch.code, 415);
  });

  it("a body over 3 MiB → 413 without storing anything", async () => {
    const huge = { metadata: { name: "huge" }, data: { blob: "x".repeat(4 * 1024 * 1024) } };
    const r = await raw(cluster.url, "POST", cmPath, huge);
    assert.equal(r.code, 413);
    assert.equal(r.body.reason, "RequestEntityTooLarge");
    assert.equal((await raw(cluster.url, "GET", `${cmPath}/huge`)).code, 404);
  });

  it("unknown resources and groups → 404 Status", async () => {
    const a = await raw(cluster.url, "GET", "/api/v1/namespaces/default/widgets");
    assert.equal(a.code, 404);
    assert.equal(a.body.reason, "NotFound");
    const b = await raw(cluster.url, "GET", "/apis/nope.example.com/v1/things");
    assert.equal(b.code, 404);
    const c = await raw(cluster.url, "GET", "/apis/nope.example.com/v1");
    assert.equal(c.code, 404);
  });

  it("invalid names → 422 with the DNS-1123 message and field", async () => {
    const r = await raw(cluster.url, "POST", cmPath, { metadata: { name: "Not_Valid" } });
    assert.equal(r.code, 422);
    assert.equal(r.body.reason, "Invalid");
    assert.equal(r.body.details.causes[0].field, "metadata.name");
    assert.match(r.body.message, /ConfigMap "Not_Valid" is invalid: metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain/);
    const svc = await raw(cluster.url, "POST", "/api/v1/namespaces/default/services", { metadata: { name: "a.b" }, spec: { ports: [{ port: 80 }] } });
    assert.equal(svc.code, 422, "Service names are DNS labels");
    const none = await raw(cluster.url, "POST", cmPath, { metadata: {} });
    assert.equal(none.code, 422);
    assert.match(none.body.message, /name or generateName is required/);
  });

  it("mismatched name or namespace → 400", async () => {
    const ns = await raw(cluster.url, "POST", cmPath, { metadata: { name: "x", namespace: "other" } });
    assert.equal(ns.code, 400);
    assert.match(ns.body.message, /does not match the namespace sent on the request/);
    const name = await raw(cluster.url, "PUT", `${cmPath}/keep`, { metadata: { name: "other" } });
    assert.equal(name.code, 400);
    assert.match(name.body.message, /does not match the name on the URL/);
  });

  it("a resourceVersion on create → 422; an unsupported verb → 405", async () => {
    const r = await raw(cluster.url, "POST", cmPath, { metadata: { name: "with-rv", resourceVersion: "5" } });
    assert.equal(r.code, 422);
    const m = await raw(cluster.url, "POST", `${cmPath}/keep`, { metadata: { name: "keep" } });
    assert.equal(m.code, 405);
    assert.equal(m.body.reason, "MethodNotAllowed");
  });

  it("bad selectors → 400", async () => {
    const l = await raw(cluster.url, "GET", `${cmPath}?labelSelector=${encodeURIComponent("a in (b")}`);
    assert.equal(l.code, 400);
    const f = await raw(cluster.url, "GET", `${cmPath}?fieldSelector=spec.x%3Dy`);
    assert.equal(f.code, 400);
    assert.equal(f.body.message, '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it("stored data survives all of the above", async () => {
    const r = await raw(cluster.url, "GET", `${cmPath}/keep`);
    assert.equal(r.code, 200);
    assert.deepEqual(r.body.data, { k: "v" });
  });
});
