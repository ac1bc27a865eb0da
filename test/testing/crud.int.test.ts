import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiException, CoreV1Api, AppsV1Api, CoordinationV1Api, KubernetesObjectApi } from "@kubernetes/client-node";
import type { KubernetesObject, V1ConfigMap } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

function statusOf(err: unknown): { code: number; body: any } {
  assert.ok(err instanceof ApiException, `expected ApiException, got ${err}`);
  return { code: err.code, body: typeof err.body === "string" ? JSON.parse(err.body) : err.body };
}

describe("LocalCluster CRUD through client-node", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  let objects: KubernetesObjectApi;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    objects = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("serves discovery and /version", async () => {
    const v = await raw(cluster.url, "GET", "/version");
    assert.equal(v.body.major, "1");
    const api = await raw(cluster.url, "GET", "/api");
    assert.deepEqual(api.body.versions, ["v1"]);
    const apis = await raw(cluster.url, "GET", "/apis");
    const groups = apis.body.groups.map((g: any) => g.name);
    for (const g of ["apps", "coordination.k8s.io", "events.k8s.io", "apiextensions.k8s.io"]) assert.ok(groups.includes(g), g);
    const appsV1 = await raw(cluster.url, "GET", "/apis/apps/v1");
    const names = appsV1.body.resources.map((r: any) => r.name);
    assert.ok(names.indexOf("deployments") < names.indexOf("deployments/status"), "main resource listed before its subresource");
    assert.equal(v.headers.get("content-type"), "application/json");
  });

  it("works with KubernetesObjectApi for every built-in kind", async () => {
    const specs: KubernetesObject[] = [
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "k-cm", namespace: "default" } },
      { apiVersion: "v1", kind: "Secret", metadata: { name: "k-secret", namespace: "default" } },
      { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "k-sa", namespace: "default" } },
      { apiVersion: "v1", kind: "Service", metadata: { name: "k-svc", namespace: "default" }, spec: { ports: [{ port: 80 }] } } as KubernetesObject,
      { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "k-pvc", namespace: "default" },
        spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } } as KubernetesObject,
      { apiVersion: "v1", kind: "Pod", metadata: { name: "k-pod", namespace: "default" }, spec: { containers: [{ name: "c", image: "busybox" }] } } as KubernetesObject,
      { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "k-lease", namespace: "default" }, spec: { holderIdentity: "a" } } as KubernetesObject,
      { apiVersion: "v1", kind: "Namespace", metadata: { name: "k-ns" } },
      { apiVersion: "events.k8s.io/v1", kind: "Event", metadata: { name: "k-ev", namespace: "default" },
        eventTime: "2026-01-01T00:00:00.000000Z", reason: "Tested", note: "hello", action: "Test", type: "Normal",
        reportingController: "tests", reportingInstance: "tests-1", regarding: { kind: "Pod", name: "k-pod", namespace: "default" } } as KubernetesObject,
    ];
    for (const s of specs) {
      const created = await objects.create(s);
      assert.equal(created.metadata?.name, s.metadata?.name);
      assert.match(created.metadata?.uid ?? "", /^[0-9a-f-]{36}$/);
      assert.match(created.metadata?.creationTimestamp?.toString() ?? "", /\d/);
      const read = await objects.read({ apiVersion: s.apiVersion!, kind: s.kind!, metadata: { name: s.metadata!.name!, namespace: s.metadata!.namespace! } });
      assert.equal(read.metadata?.uid, created.metadata?.uid);
    }
    const list = await objects.list("v1", "ConfigMap", "default");
    assert.ok(list.items.some((i) => i.metadata?.name === "k-cm"));
  });

  it("keeps one global resourceVersion and skips no-op writes", async () => {
    const a = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "rv-a" }, data: { x: "1" } } });
    const b = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "rv-b" }, data: { x: "1" } } });
    assert.ok(Number(b.metadata!.resourceVersion) > Number(a.metadata!.resourceVersion));
    const before = cluster.resourceVersion;
    const same = await core.replaceNamespacedConfigMap({ name: "rv-a", namespace: "default", body: a });
    assert.equal(same.metadata!.resourceVersion, a.metadata!.resourceVersion, "no-op PUT keeps the resourceVersion");
    assert.equal(cluster.resourceVersion, before, "no-op PUT bumps nothing");
    const list = await core.listNamespacedConfigMap({ namespace: "default" });
    assert.equal(list.metadata?.resourceVersion, String(cluster.resourceVersion));
  });

  it("answers a stale resourceVersion with 409 Conflict and the real message", async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "stale" }, data: { a: "1" } } });
    await core.replaceNamespacedConfigMap({ name: "stale", namespace: "default", body: { ...cm, data: { a: "2" } } });
    const err = await core.replaceNamespacedConfigMap({ name: "stale", namespace: "default", body: { ...cm, data: { a: "3" } } }).catch((e) => e);
    const { code, body } = statusOf(err);
    assert.equal(code, 409);
    assert.equal(body.reason, "Conflict");
    assert.equal(body.message, 'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again');
  });

  it("creates with AlreadyExists on duplicates and 404 for a missing namespace", async () => {
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "dup" } } });
    const dup = statusOf(await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "dup" } } }).catch((e) => e));
    assert.equal(dup.code, 409);
    assert.equal(dup.body.reason, "AlreadyExists");
    assert.equal(dup.body.message, 'configmaps "dup" already exists');
    const missing = statusOf(await core.createNamespacedConfigMap({ namespace: "nope", body: { metadata: { name: "x" } } }).catch((e) => e));
    assert.equal(missing.code, 404);
    assert.equal(missing.body.message, 'namespaces "nope" not found');
    const gone = statusOf(await core.readNamespacedConfigMap({ name: "absent", namespace: "default" }).catch((e) => e));
    assert.equal(gone.code, 404);
    assert.equal(gone.body.message, 'configmaps "absent" not found');
    assert.deepEqual(gone.body.details, { name: "absent", kind: "configmaps" });
  });

  it("generates names from generateName", async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { generateName: "gen-" } } });
    assert.match(cm.metadata!.name!, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it("bumps a Deployment's generation on spec changes only", async () => {
    const body = {
      metadata: { name: "gen", labels: { a: "1" } },
      spec: { replicas: 1, selector: { matchLabels: { app: "gen" } }, template: { metadata: { labels: { app: "gen" } }, spec: { containers: [{ name: "c", image: "x" }] } } },
    };
    const d = await apps.createNamespacedDeployment({ namespace: "default", body });
    assert.equal(d.metadata!.generation, 1);
    const labelled = await apps.patchNamespacedDeployment({ name: "gen", namespace: "default", body: [{ op: "add", path: "/metadata/labels/b", value: "2" }] });
    assert.equal(labelled.metadata!.generation, 1, "metadata-only change keeps generation");
    const scaled = await apps.patchNamespacedDeployment({ name: "gen", namespace: "default", body: [{ op: "replace", path: "/spec/replicas", value: 3 }] });
    assert.equal(scaled.metadata!.generation, 2);
    const status = await apps.replaceNamespacedDeploymentStatus({ name: "gen", namespace: "default", body: { ...scaled, status: { replicas: 3, observedGeneration: 2 } } });
    assert.equal(status.metadata!.generation, 2, "status writes never bump generation");
    assert.equal(status.status!.replicas, 3);
    const mainWithStatus = await apps.replaceNamespacedDeployment({ name: "gen", namespace: "default", body: { ...status, status: { replicas: 99 } } });
    assert.equal(mainWithStatus.status!.replicas, 3, "the main endpoint keeps status");
  });

  it("requires a resourceVersion on Lease updates (422)", async () => {
    const coord = cluster.kubeConfig.makeApiClient(CoordinationV1Api);
    await coord.createNamespacedLease({ namespace: "default", body: { metadata: { name: "needs-rv" }, spec: { holderIdentity: "a" } } });
    const err = statusOf(await coord.replaceNamespacedLease({ name: "needs-rv", namespace: "default", body: { metadata: { name: "needs-rv" }, spec: { holderIdentity: "b" } } }).catch((e) => e));
    assert.equal(err.code, 422);
    assert.match(err.body.message, /metadata.resourceVersion: Invalid value: 0x0: must be specified for an update/);
  });

  it("pages lists with limit and continue at one resourceVersion", async () => {
    await core.createNamespace({ body: { metadata: { name: "paging" } } });
    for (let i = 0; i < 5; i++) await core.createNamespacedConfigMap({ namespace: "paging", body: { metadata: { name: `p${i}` } } });
    const first = await core.listNamespacedConfigMap({ namespace: "paging", limit: 2 });
    assert.equal(first.items.length, 2);
    assert.equal(first.metadata!.remainingItemCount, 3);
    const names: string[] = first.items.map((i) => i.metadata!.name!);
    let cont = first.metadata!._continue;
    while (cont) {
      const page = await core.listNamespacedConfigMap({ namespace: "paging", limit: 2, _continue: cont });
      assert.equal(page.metadata!.resourceVersion, first.metadata!.resourceVersion);
      names.push(...page.items.map((i) => i.metadata!.name!));
      cont = page.metadata!._continue;
    }
    assert.deepEqual(names, ["p0", "p1", "p2", "p3", "p4"]);
  });

  it("pages a list across namespaces without skipping one whose name extends another's (pg, pg-b)", async () => {
    for (const ns of ["pg", "pg-b"]) {
      await core.createNamespace({ body: { metadata: { name: ns } } });
      for (const name of ["x", "y"]) await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name, labels: { paging: "across" } } } });
    }
    const names: string[] = [];
    let cont: string | undefined;
    do {
      const page = await core.listConfigMapForAllNamespaces({ labelSelector: "paging=across", limit: 1, ...(cont ? { _continue: cont } : {}) });
      names.push(...page.items.map((i) => `${i.metadata!.namespace}/${i.metadata!.name}`));
      cont = page.metadata!._continue;
    } while (cont);
    // etcd key order, as kube-apiserver pages: "pg-b/" sorts before "pg/".
    assert.deepEqual(names, ["pg-b/x", "pg-b/y", "pg/x", "pg/y"]);
  });

  it("deletes a collection by label and honours dryRun=All", async () => {
    await core.createNamespace({ body: { metadata: { name: "coll" } } });
    for (const [n, team] of [["c1", "a"], ["c2", "a"], ["c3", "b"]] as const) {
      await core.createNamespacedConfigMap({ namespace: "coll", body: { metadata: { name: n, labels: { team } } } });
    }
    const dry = await core.createNamespacedConfigMap({ namespace: "coll", dryRun: "All", body: { metadata: { name: "dry" } } });
    assert.equal(dry.metadata!.name, "dry");
    await assert.rejects(core.readNamespacedConfigMap({ name: "dry", namespace: "coll" }));
    await core.deleteCollectionNamespacedConfigMap({ namespace: "coll", labelSelector: "team=a" });
    const left = await core.listNamespacedConfigMap({ namespace: "coll" });
    assert.deepEqual(left.items.map((i: V1ConfigMap) => i.metadata!.name), ["c3"]);
  });

  it("lists with set-based label selectors and field selectors", async () => {
    await core.createNamespace({ body: { metadata: { name: "sel" } } });
    const make = (name: string, labels: Record<string, string>) =>
      core.createNamespacedConfigMap({ namespace: "sel", body: { metadata: { name, labels } } });
    await make("a", { env: "prod", tier: "web" });
    await make("b", { env: "dev", tier: "web" });
    await make("c", { env: "qa" });
    const names = async (labelSelector?: string, fieldSelector?: string) =>
      (await core.listNamespacedConfigMap({ namespace: "sel", ...(labelSelector ? { labelSelector } : {}), ...(fieldSelector ? { fieldSelector } : {}) }))
        .items.map((i) => i.metadata!.name).join(",");
    assert.equal(await names("env in (prod,dev)"), "a,b");
    assert.equal(await names("env notin (prod),tier"), "b");
    assert.equal(await names("!tier"), "c");
    assert.equal(await names("tier!=web"), "c");
    assert.equal(await names(undefined, "metadata.name!=a"), "b,c");
    const all = await core.listConfigMapForAllNamespaces({ fieldSelector: "metadata.namespace=sel" });
    assert.equal(all.items.length, 3);
  });

  it("counts requests by verb, resource and code", async () => {
    cluster.requests.clear();
    await core.readNamespacedConfigMap({ name: "absent", namespace: "default" }).catch(() => undefined);
    await core.listNamespacedConfigMap({ namespace: "default" });
    assert.equal(cluster.requests.count({ verb: "get", resource: "configmaps", code: 404 }), 1);
    assert.equal(cluster.requests.count({ verb: "list", resource: "configmaps", code: 200 }), 1);
    assert.equal(cluster.requests.writes(), 0);
  });
});
