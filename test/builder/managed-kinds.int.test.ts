/**
 * What a Builder reads: only the kinds it is told it manages (added, remembered, `manages`, its
 * controller's `.owns`), and a ConfigMap or Secret a workload references only by name in the
 * workload's namespace — from a synced informer that holds it, else one GET, never through an
 * informer of every Secret.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, ConfigMap, Deployment, Manager, Action, ResourceClient, Secret } from "../../src/index.ts";
import { Cache } from "../../src/entries/cache.ts";
import { silentLogger } from "../../src/entries/client.ts";
import type { KubeObject, BuilderResult } from "../../src/index.ts";
import { appliedKindsKey, forgetAppliedKind } from "../../src/builder/applied-kinds.ts";
import { reconcileScope, runInReconcileScope } from "../../src/controller/reconcile-scope.ts";
import type { ReconcileScope } from "../../src/controller/reconcile-scope.ts";
import { grant, serviceAccount } from "../support/authz.ts";
import { waitFor, within } from "../support/wait.ts";

const NS = "kinds";
const MANAGER = "kinds-operator";

const cm = (name: string): KubeObject => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { v: "1" } });
/** A Deployment whose pods read the Secret `secret` through an env var. */
const web = (secret: string): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "web", image: "example/web:1", env: [{ name: "TOKEN", valueFrom: { secretKeyRef: { name: secret, key: "token" } } }] }] },
    },
  },
});
const hashEnv = (d: KubeObject) => ((d as any).spec.template.spec.containers[0].env as { name: string }[]).map((e) => e.name).filter((n) => n !== "TOKEN");

describe("the kinds a Builder lists and prunes (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let n = 0;
  const newOwner = () => client.create<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `owner-${n++}`, namespace: NS } });
  const requestsOf = async (pass: () => Promise<BuilderResult>) => {
    cluster.requests.clear();
    const result = await pass();
    return { result, requests: cluster.requests.all().filter((r) => r.resource !== "events").map((r) => `${r.verb} ${r.resource}`).sort() };
  };
  const exists = async (name: string) => (await client.reader().get({ ...ConfigMap, namespace: NS, name })) !== undefined;

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: MANAGER });
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("lists only the kinds it adds: nothing of Secrets, Services, StatefulSets or Deployments", async () => {
    const owner = await newOwner();
    await new Builder({ client, owner }).configMap(cm(`${owner.metadata!.name}-a`)).reconcile();
    const { result, requests } = await requestsOf(() => new Builder({ client, owner }).configMap(cm(`${owner.metadata!.name}-a`)).reconcile());
    assert.deepEqual(result.objects.map((o) => o.action), ["unchanged"]);
    assert.deepEqual(requests, ["list configmaps"]);
  });

  it("after a restart, prunes a kind no pass adds any more only when `manages` names it", async () => {
    const owner = await newOwner();
    const child = `${owner.metadata!.name}-a`;
    assert.equal((await new Builder({ client, owner }).configMap(cm(child)).reconcile()).ok, true);
    // A new process remembers no kind applied for the owner.
    forgetAppliedKind(appliedKindsKey(owner.metadata!.uid!, MANAGER, undefined), ConfigMap);
    const unnamed = await requestsOf(() => new Builder({ client, owner }).reconcile());
    assert.deepEqual(unnamed.requests, [], "no kind named: nothing listed");
    assert.equal(await exists(child), true);
    const named = await new Builder({ client, owner, manages: [ConfigMap] }).reconcile();
    assert.deepEqual(named.objects.map((o) => `${o.action} ${o.name}`), [`deleted ${child}`]);
    assert.equal(await exists(child), false);
  });

  it("in a controller's reconcile, prunes the kinds the controller owns", async () => {
    const owner = await newOwner();
    const child = `${owner.metadata!.name}-a`;
    assert.equal((await new Builder({ client, owner }).configMap(cm(child)).reconcile()).ok, true);
    forgetAppliedKind(appliedKindsKey(owner.metadata!.uid!, MANAGER, undefined), ConfigMap);
    const scope: ReconcileScope = { controller: "kinds", owns: [ConfigMap, Deployment] };
    const { result, requests } = await requestsOf(() => runInReconcileScope(scope, () => new Builder({ client, owner }).reconcile()));
    assert.deepEqual(result.objects.map((o) => `${o.action} ${o.name}`), [`deleted ${child}`]);
    assert.deepEqual(requests, ["delete configmaps", "list configmaps", "list deployments"]);
  });

  it("in a controller's reconcile of one primary, a Builder for another owner does not take the controller's owned kinds", async () => {
    const owner = await newOwner();
    const child = `${owner.metadata!.name}-a`;
    assert.equal((await new Builder({ client, owner }).configMap(cm(child)).reconcile()).ok, true);
    forgetAppliedKind(appliedKindsKey(owner.metadata!.uid!, MANAGER, undefined), ConfigMap);
    // The reconcile is about another ConfigMap: this Builder's owner is not its primary.
    const scope: ReconcileScope = { controller: "kinds", owns: [ConfigMap, Deployment], primary: ConfigMap, request: { namespace: NS, name: "another" } };
    const { result, requests } = await requestsOf(() => runInReconcileScope(scope, () => new Builder({ client, owner }).reconcile()));
    assert.deepEqual(result.objects, []);
    assert.deepEqual(requests, [], "no list of the controller's kinds, nothing pruned");
    assert.equal(await exists(child), true);
  });

  it("a controller built by the Manager runs each reconcile in the scope of its owned kinds", async () => {
    const mgr = new Manager({ kubeConfig: cluster.kubeConfig, fieldManager: MANAGER, healthPort: false, leaderElection: false, recorder: false, logger: silentLogger });
    const seen = new Map<string, ReconcileScope | undefined>();
    mgr.controller("scoped").for(Secret, { namespace: NS }).owns(Deployment, { namespace: NS }).owns(ConfigMap, { namespace: NS })
      .reconcile(async (req) => {
        await Promise.resolve(); // across an await
        seen.set(req.name, reconcileScope());
        return Action.done();
      });
    const running = mgr.start();
    try {
      await client.create({ ...Secret, metadata: { name: "scoped", namespace: NS }, stringData: { token: "x" } });
      const scope = await waitFor(() => seen.get("scoped"), "a reconcile of Secret scoped", 10_000);
      assert.deepEqual(scope, {
        controller: "scoped", owns: [{ apiVersion: "apps/v1", kind: "Deployment" }, { apiVersion: "v1", kind: "ConfigMap" }],
        primary: { apiVersion: "v1", kind: "Secret" }, request: { namespace: NS, name: "scoped" },
      });
      assert.equal(reconcileScope(), undefined, "outside a reconcile: no scope");
    } finally {
      await within(mgr.stop(), "mgr.stop()", 15_000);
      await running.catch(() => undefined);
    }
  });
});

describe("a ConfigMap or Secret a workload references and the Builder does not add (against LocalCluster)", () => {
  let cluster: LocalCluster;
  let admin: ResourceClient;
  let owner: KubeObject;

  before(async () => {
    cluster = await LocalCluster.start({ authorization: true });
    admin = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "admin" });
    await admin.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
    await admin.create({ ...Secret, metadata: { name: "token", namespace: NS }, stringData: { token: "s3cret" } });
    owner = await admin.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web-owner", namespace: NS } });
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("is read with one GET from the API reader, by name in the owner's namespace", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "api-reader" });
    const other = await admin.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "api-owner", namespace: NS } });
    cluster.requests.clear();
    const result = await new Builder({ client, owner: other }).deployment({ ...web("token"), metadata: { name: "api-web" } }).reconcile();
    assert.equal(result.ok, true, JSON.stringify(result.errors.map((e) => e.message)));
    assert.deepEqual(cluster.requests.all().filter((r) => r.resource === "secrets").map((r) => `${r.verb} ${r.namespace}/${r.name}`), [`get ${NS}/token`]);
    const live = await admin.get({ ...Deployment, namespace: NS, name: "api-web" });
    assert.equal(hashEnv(live).length, 1, "the Secret's hash is in the pod template");
  });

  it("through a cache that holds no Secret informer: one GET, and no informer of Secrets is created", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "cache-reader" });
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    cache.informer(Deployment, { namespace: NS });
    await cache.start(AbortSignal.timeout(10_000));
    try {
      const other = await admin.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cache-owner", namespace: NS } });
      cluster.requests.clear();
      const result = await new Builder({ client, owner: other, reader: cache, manages: [] }).deployment({ ...web("token"), metadata: { name: "cache-web" } }).reconcile();
      assert.equal(result.ok, true, JSON.stringify(result.errors.map((e) => e.message)));
      assert.deepEqual(cluster.requests.all().filter((r) => r.resource === "secrets").map((r) => `${r.verb} ${r.namespace ?? ""}/${r.name ?? ""}`), [`get ${NS}/token`]);
      assert.deepEqual(cache.informers().map((i) => i.name).filter((name) => /secret/i.test(name)), []);
    } finally {
      await cache.stop();
    }
  });

  it("through a cache with a synced informer of the namespace's Secrets: read there, no request", async () => {
    const client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "informer-reader" });
    const cache = new Cache({ client, kubeConfig: cluster.kubeConfig });
    cache.informer(Deployment, { namespace: NS });
    cache.informer(Secret, { namespace: NS });
    await cache.start(AbortSignal.timeout(10_000));
    try {
      const other = await admin.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "informer-owner", namespace: NS } });
      cluster.requests.clear();
      const result = await new Builder({ client, owner: other, reader: cache }).deployment({ ...web("token"), metadata: { name: "informer-web" } }).reconcile();
      assert.equal(result.ok, true, JSON.stringify(result.errors.map((e) => e.message)));
      assert.deepEqual(cluster.requests.all().filter((r) => r.resource === "secrets" && r.verb !== "watch"), []);
      assert.equal(hashEnv(await admin.get({ ...Deployment, namespace: NS, name: "informer-web" })).length, 1);
    } finally {
      await cache.stop();
    }
  });

  it("a 403 on it fails the workload for the pass with an error naming the grant; granted, the next pass writes it", async () => {
    const { kubeConfig } = await cluster.serviceAccountKubeConfig(NS, "web-operator");
    await grant(cluster, NS, "web-operator", [
      { apiGroups: ["apps"], resources: ["deployments"], verbs: ["get", "list", "watch", "create", "patch", "delete"] },
      { apiGroups: [""], resources: ["configmaps/finalizers"], verbs: ["update"] }, // its children block the owner's deletion
    ], [serviceAccount(NS, "web-operator")]);
    const client = new ResourceClient({ kubeConfig, fieldManager: "web-operator" });
    const pass = () => new Builder({ client, owner }).deployment(web("token")).reconcile();
    const refused = await pass();
    assert.deepEqual(refused.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), ["failed Deployment/web"]);
    assert.match(refused.errors[0]!.message, /reading Secret\/kinds\/token, which its pods use, was refused \(403 Forbidden\)/);
    assert.match(refused.errors[0]!.message, /Fix: grant get on secrets in namespace "kinds" \(a Role there, or `\.uses\(Secret, \{ verbs: \["get"\] \}\)` on the controller/);
    assert.equal(await admin.reader().get({ ...Deployment, namespace: NS, name: "web" }), undefined, "nothing written for it");

    await grant(cluster, NS, "web-operator-secrets", [{ apiGroups: [""], resources: ["secrets"], verbs: ["get"] }], [serviceAccount(NS, "web-operator")]);
    const granted = await pass();
    assert.deepEqual(granted.objects.map((o) => `${o.action} ${o.kind}/${o.name}`), ["created Deployment/web"], JSON.stringify(granted.errors.map((e) => e.message)));
  });
});
