/**
 * LocalCluster's authorization mode: bearer-token authentication (401 otherwise) and RBAC from
 * Roles, ClusterRoles and bindings created through the API, with kube-apiserver's 403 texts,
 * over real HTTPS with the real client-node.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AppsV1Api, AuthorizationV1Api, CoreV1Api, RbacAuthorizationV1Api } from "@kubernetes/client-node";
import { ForbiddenError } from "../../src/entries/client.ts";
import { ResourceClient } from "../../src/index.ts";
import { LocalCluster } from "../../src/testing/index.ts";
import type { UserKubeConfig } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";
import { grant, rawAs, serviceAccount, statusOf } from "../support/authz.ts";

const deployment = (name: string) => ({
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
  },
});

describe("LocalCluster authorization mode", { timeout: 60_000 }, () => {
  let cluster: LocalCluster;
  let admin: CoreV1Api;

  before(async () => {
    cluster = await LocalCluster.start({ authorization: true });
    admin = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await admin.createNamespace({ body: { metadata: { name: "other" } } });
    for (const ns of ["default", "other"]) {
      await admin.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "cm" }, data: { a: "1" } } });
    }
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
  });

  /** The 403 a call gets, or a failure naming what it got instead. */
  async function forbidden(call: Promise<unknown>): Promise<{ message: string; body: any }> {
    const err = await call.then(() => undefined, (e: unknown) => e);
    assert.ok(err, "expected a 403, the call succeeded");
    const { code, message, body } = statusOf(err);
    assert.equal(code, 403, message);
    return { message, body };
  }

  it("answers requests without a token, or with an unknown one, 401 Unauthorized as kube-apiserver", async () => {
    const unauthorized = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: "Unauthorized", reason: "Unauthorized", code: 401 };
    for (const token of [undefined, "not-a-token"]) {
      const list = await rawAs(cluster, token, "GET", "/api/v1/namespaces/default/configmaps");
      assert.equal(list.code, 401);
      assert.deepEqual(list.body, unauthorized);
      const discovery = await rawAs(cluster, token, "GET", "/apis");
      assert.equal(discovery.code, 401);
    }
    assert.equal((await rawAs(cluster, undefined, "GET", "/readyz")).code, 200, "health checks need no token");
    assert.ok(cluster.requests.filter({ code: 401, resource: "configmaps" }).length >= 2, "401s are in the request log");
  });

  it("lets any authenticated user read discovery and /version, and nothing else", async () => {
    const nobody = await cluster.userKubeConfig({ name: "nobody" });
    assert.deepEqual(nobody.groups, ["system:authenticated"]);
    assert.equal((await rawAs(cluster, nobody.token, "GET", "/apis")).code, 200);
    assert.equal((await rawAs(cluster, nobody.token, "GET", "/api/v1")).code, 200);
    assert.equal((await rawAs(cluster, nobody.token, "GET", "/version")).code, 200);
    const metrics = await rawAs(cluster, nobody.token, "GET", "/metrics");
    assert.equal(metrics.code, 403);
    assert.equal(metrics.body.message, 'forbidden: User "nobody" cannot get path "/metrics"');
    assert.deepEqual(metrics.body.details, {});
    assert.deepEqual(cluster.requests.filter({ resource: "/metrics", code: 403 }).map((r) => [r.verb, r.user]), [["get", "nobody"]],
      "a denied non-resource request is in the request log, under its path");
  });

  it("gives a service account what a Role in its namespace allows, there only, with kube-apiserver's 403 texts", async () => {
    await grant(cluster, "default", "cm-reader", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] }], [serviceAccount("default", "reader")]);
    const sa = await cluster.serviceAccountKubeConfig("default", "reader");
    assert.equal(sa.user, "system:serviceaccount:default:reader");
    assert.deepEqual(sa.groups, ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"]);
    const core = sa.kubeConfig.makeApiClient(CoreV1Api);
    const list = await core.listNamespacedConfigMap({ namespace: "default" });
    assert.deepEqual(list.items.map((c) => c.metadata?.name), ["cm"]);
    assert.equal((await core.readNamespacedConfigMap({ namespace: "default", name: "cm" })).data?.a, "1");

    const other = await forbidden(core.listNamespacedConfigMap({ namespace: "other" }));
    assert.equal(other.message, 'configmaps is forbidden: User "system:serviceaccount:default:reader" cannot list resource "configmaps" in API group "" in the namespace "other"');
    assert.deepEqual(other.body, {
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message: other.message, reason: "Forbidden",
      details: { kind: "configmaps" }, code: 403,
    });
    const named = await forbidden(core.readNamespacedConfigMap({ namespace: "other", name: "cm" }));
    assert.equal(named.message, 'configmaps "cm" is forbidden: User "system:serviceaccount:default:reader" cannot get resource "configmaps" in API group "" in the namespace "other"');
    assert.deepEqual(named.body.details, { name: "cm", kind: "configmaps" });
    const cluster_ = await forbidden(core.listConfigMapForAllNamespaces());
    assert.equal(cluster_.message, 'configmaps is forbidden: User "system:serviceaccount:default:reader" cannot list resource "configmaps" in API group "" at the cluster scope');
    const watch = await rawAs(cluster, sa.token, "GET", "/api/v1/namespaces/default/configmaps?watch=true");
    assert.equal(watch.code, 403);
    assert.match(watch.body.message, /cannot watch resource "configmaps" in API group "" in the namespace "default"$/);
    const write = await forbidden(core.deleteNamespacedConfigMap({ namespace: "default", name: "cm" }));
    assert.match(write.message, /cannot delete resource "configmaps" in API group "" in the namespace "default"$/);

    const denied = cluster.requests.filter({ code: 403 }).filter((r) => r.user === sa.user);
    assert.deepEqual(denied.map((r) => `${r.verb} ${r.namespace ?? ""}`), ["list other", "get other", "list ", "watch default", "delete default"]);
    assert.ok(cluster.requests.filter({ verb: "list", resource: "configmaps", namespace: "default", code: 200 }).some((r) => r.user === sa.user));
  });

  it("serves the SDK's own client over HTTPS with the kubeconfig's CA: allowed lists, ForbiddenError otherwise", async () => {
    const sa = await cluster.serviceAccountKubeConfig("default", "reader");
    const client = new ResourceClient({ kubeConfig: sa.kubeConfig, fieldManager: "reader" });
    const page = await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "default" });
    assert.deepEqual(page.items.map((c) => c.metadata?.name), ["cm"]);
    const err = await client.list({ apiVersion: "v1", kind: "Secret" }, { namespace: "default" }).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof ForbiddenError, String(err));
    assert.match(err.message, /secrets is forbidden: User "system:serviceaccount:default:reader" cannot list resource "secrets"/);
  });

  it("gives cluster scope through a ClusterRoleBinding, and only the verbs its rules name", async () => {
    await grant(cluster, undefined, "cm-lister", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["list", "watch"] }], [{ kind: "User", name: "carol", apiGroup: "rbac.authorization.k8s.io" }]);
    const carol = (await cluster.userKubeConfig({ name: "carol" })).kubeConfig.makeApiClient(CoreV1Api);
    const all = await carol.listConfigMapForAllNamespaces();
    assert.ok(all.items.some((c) => c.metadata?.namespace === "other"));
    await carol.listNamespacedConfigMap({ namespace: "other" });
    await forbidden(carol.readNamespacedConfigMap({ namespace: "other", name: "cm" }));
  });

  it("binds Groups, and keeps subresources apart from their resource", async () => {
    await grant(cluster, "default", "status-writer", [
      { apiGroups: ["apps"], resources: ["deployments"], verbs: ["get", "create"] },
      { apiGroups: ["apps"], resources: ["deployments/status"], verbs: ["patch"] },
    ], [{ kind: "Group", name: "writers", apiGroup: "rbac.authorization.k8s.io" }]);
    const dave = await cluster.userKubeConfig({ name: "dave", groups: ["writers"] });
    const apps = dave.kubeConfig.makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({ namespace: "default", body: deployment("web") });
    await rawAs(cluster, dave.token, "PATCH", "/apis/apps/v1/namespaces/default/deployments/web/status", {
      body: { status: { observedGeneration: 1 } }, contentType: "application/merge-patch+json",
    }).then((r) => assert.equal(r.code, 200, r.text));
    const spec = await rawAs(cluster, dave.token, "PATCH", "/apis/apps/v1/namespaces/default/deployments/web", {
      body: { spec: { replicas: 2 } }, contentType: "application/merge-patch+json",
    });
    assert.equal(spec.code, 403);
    assert.equal(spec.body.message, 'deployments.apps "web" is forbidden: User "dave" cannot patch resource "deployments" in API group "apps" in the namespace "default"');
    const scale = await forbidden(apps.replaceNamespacedDeploymentScale({ namespace: "default", name: "web", body: { metadata: { name: "web" }, spec: { replicas: 3 } } }));
    assert.equal(scale.message, 'deployments.apps "web" is forbidden: User "dave" cannot update resource "deployments/scale" in API group "apps" in the namespace "default"');
    assert.deepEqual(scale.body.details, { name: "web", group: "apps", kind: "deployments" });
  });

  it("matches wildcards as kube's RBAC does: *, */subresource, never resource/*", async () => {
    await grant(cluster, "default", "wild", [
      { apiGroups: ["*"], resources: ["*/scale"], verbs: ["get"] },
      { apiGroups: ["apps"], resources: ["deployments/*"], verbs: ["update"] },
      { apiGroups: [""], resources: ["*"], verbs: ["list"] },
      { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["*"] },
    ], [{ kind: "User", name: "wanda", apiGroup: "rbac.authorization.k8s.io" }]);
    const wanda = await cluster.userKubeConfig({ name: "wanda" });
    const as = (method: string, path: string) => rawAs(cluster, wanda.token, method, path).then((r) => r.code);
    await cluster.kubeConfig.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace: "default", body: deployment("wild") });
    assert.equal(await as("GET", "/apis/apps/v1/namespaces/default/deployments/wild/scale"), 200, "*/scale in any group");
    assert.equal(await as("GET", "/apis/apps/v1/namespaces/default/deployments/wild"), 403, "*/scale is not the resource");
    const update = await rawAs(cluster, wanda.token, "PUT", "/apis/apps/v1/namespaces/default/deployments/wild/status", { body: deployment("wild") });
    assert.equal(update.code, 403, "deployments/* is no wildcard");
    assert.equal(await as("GET", "/api/v1/namespaces/default/secrets"), 200, "* resources of the core group");
    assert.equal(await as("GET", "/apis/apps/v1/namespaces/default/deployments"), 403, "only in the groups listed");
    assert.equal(await as("DELETE", "/apis/coordination.k8s.io/v1/namespaces/default/leases"), 200, "* verbs");
  });

  it("matches resourceNames only for requests naming the object, a metadata.name field selector included", async () => {
    await grant(cluster, "default", "one-cm", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list", "watch"], resourceNames: ["cm"] }],
      [{ kind: "User", name: "nina", apiGroup: "rbac.authorization.k8s.io" }]);
    const nina = await cluster.userKubeConfig({ name: "nina" });
    const core = nina.kubeConfig.makeApiClient(CoreV1Api);
    await admin.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "cm2" } } });
    assert.equal((await core.readNamespacedConfigMap({ namespace: "default", name: "cm" })).metadata?.name, "cm");
    await forbidden(core.readNamespacedConfigMap({ namespace: "default", name: "cm2" }));
    await forbidden(core.listNamespacedConfigMap({ namespace: "default" }));
    const one = await core.listNamespacedConfigMap({ namespace: "default", fieldSelector: "metadata.name=cm" });
    assert.deepEqual(one.items.map((c) => c.metadata?.name), ["cm"]);
    const other = await forbidden(core.listNamespacedConfigMap({ namespace: "default", fieldSelector: "metadata.name=cm2" }));
    assert.equal(other.message, 'configmaps "cm2" is forbidden: User "nina" cannot list resource "configmaps" in API group "" in the namespace "default"');
  });

  it("authorizes a namespace's own object in that namespace, as kube-apiserver's request info does", async () => {
    await grant(cluster, "other", "ns-reader", [{ apiGroups: [""], resources: ["namespaces"], verbs: ["get"] }], [{ kind: "User", name: "olga", apiGroup: "rbac.authorization.k8s.io" }]);
    const olga = (await cluster.userKubeConfig({ name: "olga" })).kubeConfig.makeApiClient(CoreV1Api);
    assert.equal((await olga.readNamespace({ name: "other" })).metadata?.name, "other");
    const def = await forbidden(olga.readNamespace({ name: "default" }));
    assert.equal(def.message, 'namespaces "default" is forbidden: User "olga" cannot get resource "namespaces" in API group "" in the namespace "default"');
  });

  it("names a binding's missing role in the 403, as kube's RBAC authorizer does", async () => {
    const rbac = cluster.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRoleBinding({ namespace: "default", body: {
      metadata: { name: "dangling" }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "gone" },
      subjects: [{ kind: "User", name: "gus", apiGroup: "rbac.authorization.k8s.io" }],
    } });
    const gus = (await cluster.userKubeConfig({ name: "gus" })).kubeConfig.makeApiClient(CoreV1Api);
    const denied = await forbidden(gus.listNamespacedSecret({ namespace: "default" }));
    assert.equal(denied.message, 'secrets is forbidden: User "gus" cannot list resource "secrets" in API group "" in the namespace "default": RBAC: role.rbac.authorization.k8s.io "gone" not found');
  });

  it("follows RBAC changes at once: deleting the binding takes the permission away", async () => {
    const rbac = cluster.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    await grant(cluster, "default", "temp", [{ apiGroups: [""], resources: ["secrets"], verbs: ["list"] }], [{ kind: "User", name: "tim", apiGroup: "rbac.authorization.k8s.io" }]);
    const tim = (await cluster.userKubeConfig({ name: "tim" })).kubeConfig.makeApiClient(CoreV1Api);
    await tim.listNamespacedSecret({ namespace: "default" });
    await rbac.deleteNamespacedRoleBinding({ namespace: "default", name: "temp" });
    await forbidden(tim.listNamespacedSecret({ namespace: "default" }));
  });

  it("answers SelfSubjectAccessReviews with kube's reasons, and SubjectAccessReviews for the admin", async () => {
    const sa = await cluster.serviceAccountKubeConfig("default", "reader");
    const authz = sa.kubeConfig.makeApiClient(AuthorizationV1Api);
    const yes = await authz.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { namespace: "default", verb: "list", resource: "configmaps" } } } });
    assert.deepEqual({ ...yes.status }, { allowed: true, reason: 'RBAC: allowed by RoleBinding "cm-reader/default" of Role "cm-reader" to ServiceAccount "reader/default"' });
    const no = await authz.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { namespace: "other", verb: "list", resource: "configmaps" } } } });
    assert.deepEqual({ ...no.status }, { allowed: false });
    const path = await authz.createSelfSubjectAccessReview({ body: { spec: { nonResourceAttributes: { path: "/apis/apps", verb: "get" } } } });
    assert.equal(path.status?.allowed, true);
    await forbidden(authz.createSubjectAccessReview({ body: { spec: { user: "x", resourceAttributes: { verb: "get", resource: "pods" } } } }));
    const adminAuthz = cluster.kubeConfig.makeApiClient(AuthorizationV1Api);
    const sar = await adminAuthz.createSubjectAccessReview({ body: { spec: { user: sa.user, groups: sa.groups, resourceAttributes: { namespace: "default", verb: "get", resource: "configmaps", name: "cm" } } } });
    assert.equal(sar.status?.allowed, true);
    const rules = await authz.createSelfSubjectRulesReview({ body: { spec: { namespace: "default" } } });
    assert.ok(rules.status?.resourceRules.some((r) => r.resources?.includes("configmaps") && r.verbs.join() === "get,list"));
    assert.ok(rules.status?.nonResourceRules.some((r) => r.nonResourceURLs?.includes("/apis/*")));
  });

  it("lets the admin impersonate (Impersonate-User/-Group), and forbids it to others", async () => {
    const adminToken = cluster.kubeConfig.getCurrentUser()!.token!;
    const asReader = await rawAs(cluster, adminToken, "GET", "/api/v1/namespaces/other/configmaps", {
      headers: { "Impersonate-User": "system:serviceaccount:default:reader" },
    });
    assert.equal(asReader.code, 403);
    assert.match(asReader.body.message, /^configmaps is forbidden: User "system:serviceaccount:default:reader" cannot list/);
    const asGroup = await rawAs(cluster, adminToken, "PATCH", "/apis/apps/v1/namespaces/default/deployments/web/status", {
      headers: { "Impersonate-User": "someone", "Impersonate-Group": "writers" }, body: {}, contentType: "application/merge-patch+json",
    });
    assert.equal(asGroup.code, 200, asGroup.text);
    const sa = await cluster.serviceAccountKubeConfig("default", "reader");
    const escalate = await rawAs(cluster, sa.token, "GET", "/api/v1/namespaces/default/configmaps", { headers: { "Impersonate-User": "localcluster-admin" } });
    assert.equal(escalate.code, 403);
    assert.equal(escalate.body.message, 'users "localcluster-admin" is forbidden: User "system:serviceaccount:default:reader" cannot impersonate resource "users" in API group "" at the cluster scope');
  });
});

describe("LocalCluster without authorization mode", { timeout: 30_000 }, () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
  });

  it("ignores tokens: every request is allowed, with or without one, and logged without a user", async () => {
    for (const headers of [{}, { Authorization: "Bearer nonsense" }]) {
      const res = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps`, { headers });
      assert.equal(res.status, 200);
    }
    assert.equal(cluster.url.startsWith("http://"), true);
    assert.equal(cluster.caCertificate, undefined);
    assert.equal(cluster.authorization, false);
    assert.ok(cluster.requests.all().every((r) => r.user === undefined));
  });

  it("refuses to write user kubeconfigs, which would prove nothing", async () => {
    await assert.rejects(cluster.userKubeConfig({ name: "alice" }), /start it with LocalCluster.start\(\{ authorization: true \}\)/);
    await assert.rejects(cluster.serviceAccountKubeConfig("default", "op"), TypeError);
  });
});
