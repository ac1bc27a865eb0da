import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ResourceClient, BuilderValidationErrors } from "../../src/index.ts";
import { MANAGED_BY_LABEL, DESIRED_HASH_ANNOTATION } from "../../src/entries/builder.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, within } from "../support/wait.ts";
import { config, otherConfig, scratch, secret, server, serverService, web } from "./fixtures.ts";

const NS = "apps";

describe("Builder.reconcile against LocalCluster", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let owner: any;
  const get = (path: string) => raw(cluster.url, "GET", path).then((r) => r.body);
  const writes = () => cluster.requests.writes();

  const chain = (o: KubeObject = owner) =>
    new Builder({ client, owner: o, labels: { "app.kubernetes.io/part-of": "demo" } })
      .configMap(config())
      .secret(secret())
      .configMap(otherConfig())
      .statefulSet(server())
      .deployment(web())
      .service(serverService());

  before(async () => {
    cluster = await LocalCluster.start();
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-operator" });
    owner = await createDataApp(cluster.url, NS, "demo");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));
  beforeEach(() => cluster.requests.clear());

  it("creates every object with the owner reference, labels and config-hash env", async () => {
    const result = await chain().reconcile();
    assert.equal(result.ok, true, result.errors.map((e) => e.message).join("\n"));
    assert.deepEqual(result.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), [
      "created ConfigMap/app-config", "created Secret/app-secret", "created ConfigMap/web-config",
      "created StatefulSet/server", "created Deployment/web", "created Service/server",
    ]);
    const sts = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/server`);
    assert.deepEqual(sts.metadata.ownerReferences, [{ apiVersion: "example.com/v1", kind: "DataApp", name: "demo", uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.equal(sts.metadata.labels[MANAGED_BY_LABEL], "dataapp-operator");
    assert.equal(sts.metadata.labels["app.kubernetes.io/part-of"], "demo");
    assert.match(sts.metadata.annotations[DESIRED_HASH_ANNOTATION], /^[0-9a-f]{16,}$/);
    const env = sts.spec.template.spec.containers[0].env.map((e: any) => e.name);
    assert.deepEqual(env, ["CONFIGMAP_APP_CONFIG_HASH", "SECRET_APP_SECRET_HASH"]);
    const webEnv = (await get(`/apis/apps/v1/namespaces/${NS}/deployments/web`)).spec.template.spec.containers[0].env.map((e: any) => e.name);
    assert.deepEqual(webEnv, ["THEME", "CONFIGMAP_WEB_CONFIG_HASH"]);
    const s = await get(`/api/v1/namespaces/${NS}/secrets/app-secret`);
    assert.equal(s.data.password, Buffer.from("s3cret").toString("base64"));
  });

  it("makes zero write requests when nothing changed", async () => {
    const result = await chain().reconcile();
    assert.ok(result.objects.every((o) => o.action === "unchanged"), JSON.stringify(result.objects));
    assert.equal(result.changed, false);
    assert.equal(writes(), 0, JSON.stringify(cluster.requests.summary()));
  });

  it("a ConfigMap change updates exactly that ConfigMap and the workload that mounts it", async () => {
    const before = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/server`);
    const webBefore = await get(`/apis/apps/v1/namespaces/${NS}/deployments/web`);
    const result = await new Builder({ client, owner, labels: { "app.kubernetes.io/part-of": "demo" } })
      .configMap(config({ "app.properties": "threads=8" })).secret(secret()).configMap(otherConfig())
      .statefulSet(server()).deployment(web()).service(serverService()).reconcile();
    assert.deepEqual(result.objects.filter((o) => o.action !== "unchanged").map((o) => `${o.action} ${o.kind}/${o.name}`),
      ["updated ConfigMap/app-config", "updated StatefulSet/server"]);
    // Two applies, each after the one-time move of its object's create-time field ownership
    // into the apply's (see src/builder/field-ownership.ts): later updates are one write each.
    assert.equal(writes(), 4);
    const after = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/server`);
    const hashOf = (o: any) => o.spec.template.spec.containers[0].env.find((e: any) => e.name === "CONFIGMAP_APP_CONFIG_HASH").value;
    assert.notEqual(hashOf(after), hashOf(before), "the pod template changed: pods roll");
    assert.equal(after.metadata.generation, before.metadata.generation + 1);
    const webAfter = await get(`/apis/apps/v1/namespaces/${NS}/deployments/web`);
    assert.equal(webAfter.metadata.resourceVersion, webBefore.metadata.resourceVersion, "web does not reference app-config");
  });

  it("corrects manual drift and keeps another manager's label", async () => {
    const edited = await raw(cluster.url, "PATCH", `/apis/apps/v1/namespaces/${NS}/statefulsets/server?fieldManager=kubectl-edit`, { spec: { replicas: 5 }, metadata: { labels: { "team": "storage" } } }, "application/merge-patch+json");
    assert.equal(edited.code, 200, edited.text);
    assert.equal(edited.body.spec.replicas, 5);
    const rekeyed = await raw(cluster.url, "PATCH", `/api/v1/namespaces/${NS}/services/server?fieldManager=kubectl-edit`, [{ op: "replace", path: "/spec/ports/0/port", value: 9999 }, { op: "replace", path: "/spec/ports/0/name", value: "debug" }], "application/json-patch+json");
    assert.equal(rekeyed.code, 200, rekeyed.text);
    cluster.requests.clear();
    const result = await new Builder({ client, owner, labels: { "app.kubernetes.io/part-of": "demo" } })
      .configMap(config({ "app.properties": "threads=8" })).secret(secret()).configMap(otherConfig())
      .statefulSet(server()).deployment(web()).service(serverService()).reconcile();
    const changed = result.objects.filter((o) => o.action !== "unchanged");
    assert.deepEqual(changed.map((o) => `${o.action} ${o.kind}/${o.name}`), ["updated StatefulSet/server", "updated Service/server"],
      JSON.stringify(result.objects.map((o) => [o.kind, o.name, o.action, o.reason])));
    assert.match(changed[0]!.reason ?? "", /drifted/);
    const sts = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/server`);
    assert.equal(sts.spec.replicas, 2);
    assert.equal(sts.metadata.labels.team, "storage", "another manager's label survives");
    // Our port is back; the re-keyed one is kubectl-edit's item now (it set its key) and stays.
    const ports = (await get(`/api/v1/namespaces/${NS}/services/server`)).spec.ports.map((p: { name: string; port: number }) => `${p.name}:${p.port}`);
    assert.deepEqual(ports.sort(), ["debug:9999", "http:8080"]);
  });

  it("prunes an object removed from the chain, but never one it does not own", async () => {
    // Same kind, same label, not owned: must survive. Owned by another DataApp: must survive.
    const other = await createDataApp(cluster.url, NS, "other");
    await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "stray", labels: { [MANAGED_BY_LABEL]: "dataapp-operator" } } });
    await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "others", labels: { [MANAGED_BY_LABEL]: "dataapp-operator" },
      ownerReferences: [{ apiVersion: "example.com/v1", kind: "DataApp", name: "other", uid: other.metadata.uid, controller: true }] } });
    const result = await new Builder({ client, owner, labels: { "app.kubernetes.io/part-of": "demo" } })
      .configMap(config({ "app.properties": "threads=8" })).secret(secret())
      .statefulSet(server()).service(serverService()).reconcile();
    const deleted = result.objects.filter((o) => o.action === "deleted").map((o) => `${o.kind}/${o.name}`).sort();
    assert.deepEqual(deleted, ["ConfigMap/web-config", "Deployment/web"]);
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/web-config`)).code, 404);
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/stray`)).code, 200);
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/configmaps/others`)).code, 200);
  });

  it("never prunes a PVC without opt-in, and does with it", async () => {
    const base = () => new Builder({ client, owner, labels: { "app.kubernetes.io/part-of": "demo" } })
      .configMap(config({ "app.properties": "threads=8" })).secret(secret()).statefulSet(server()).service(serverService());
    assert.equal((await base().storage(scratch()).reconcile()).ok, true);
    const kept = await base().reconcile();
    assert.equal(kept.objects.some((o) => o.action === "deleted"), false);
    assert.equal((await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/persistentvolumeclaims/scratch`)).code, 200);
    const optIn = await new Builder({ client, owner, labels: { "app.kubernetes.io/part-of": "demo" }, prune: { persistentVolumeClaims: true } })
      .configMap(config({ "app.properties": "threads=8" })).secret(secret()).statefulSet(server()).service(serverService()).reconcile();
    assert.deepEqual(optIn.objects.filter((o) => o.action === "deleted").map((o) => `${o.kind}/${o.name}`), ["PersistentVolumeClaim/scratch"]);
  });

  it("one failing object leaves the others reconciled and disables pruning for that pass", async () => {
    cluster.inject({ verb: "patch", resource: "services", code: 500, times: 1 });
    const result = await new Builder({ client, owner })
      .configMap(config({ "app.properties": "threads=16" })).secret(secret()).statefulSet(server())
      .service(serverService(8081)).reconcile();
    assert.equal(result.ok, false);
    const byName = Object.fromEntries(result.objects.map((o) => [`${o.kind}/${o.name}`, o.action]));
    assert.equal(byName["ConfigMap/app-config"], "updated");
    assert.equal(byName["StatefulSet/server"], "updated");
    assert.equal(byName["Service/server"], "failed");
    assert.equal(result.errors.length, 1);
    assert.match(result.pruneSkipped ?? "", /did not reconcile/);
  });

  it("never takes over an object another owner controls", async () => {
    const other = (await raw(cluster.url, "GET", `/apis/example.com/v1/namespaces/${NS}/dataapps/other`)).body;
    await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "contested", ownerReferences: [
      { apiVersion: "example.com/v1", kind: "DataApp", name: "other", uid: other.metadata.uid, controller: true }] }, data: { v: "theirs" } });
    const result = await new Builder({ client, owner, prune: false })
      .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "contested" }, data: { v: "mine" } }).reconcile();
    assert.equal(result.objects[0]!.action, "failed");
    assert.match(result.errors[0]!.message, /controlled by DataApp other/);
    assert.deepEqual((await get(`/api/v1/namespaces/${NS}/configmaps/contested`)).data, { v: "theirs" });
  });

  it("throws one error listing every invalid input before any request", async () => {
    cluster.requests.clear();
    const bad: KubeObject = { ...web(), spec: { ...(web().spec as object), selector: { matchLabels: { app: "nope" } } } };
    const badService = { apiVersion: "v1", kind: "Service", metadata: { name: "Bad_Name" }, spec: { ports: [{ port: 80 }] } };
    await assert.rejects(
      new Builder({ client, owner }).deployment(bad).service(badService).configMap({ ...secret() }).reconcile(),
      (err: unknown) => {
        assert.ok(err instanceof BuilderValidationErrors);
        assert.ok(err.errors.length >= 3, err.message);
        assert.match(err.message, /spec\.selector/);
        assert.match(err.message, /metadata\.name/);
        assert.match(err.message, /\.configMap\(\) takes a ConfigMap/);
        return true;
      },
    );
    assert.equal(cluster.requests.count(), 0);
  });

  it("plan() reports what would change and writes nothing", async () => {
    const chainWith = (threads: string) => new Builder({ client, owner })
      .configMap(config({ "app.properties": threads })).secret(secret()).statefulSet(server(3)).service(serverService(8081));
    assert.equal((await chainWith("threads=32").reconcile()).ok, true);
    cluster.requests.clear();
    const plan = await chainWith("threads=64").plan();
    assert.equal(plan.dryRun, true);
    assert.deepEqual(plan.objects.filter((o) => o.action !== "unchanged").map((o) => `${o.action} ${o.kind}/${o.name}`),
      ["updated ConfigMap/app-config", "updated StatefulSet/server"]);
    assert.equal(cluster.requests.writes(), 0);
    const cm = await get(`/api/v1/namespaces/${NS}/configmaps/app-config`);
    assert.equal(cm.data["app.properties"], "threads=32");
  });
});
