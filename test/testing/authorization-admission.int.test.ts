/**
 * The checks kube-apiserver makes on writes by users outside `system:masters`, in LocalCluster's
 * authorization mode: a server-side apply that creates needs `create`; owner references need
 * `delete` on the object (when changed) and `update` on the owner's finalizers (to block its
 * deletion); RBAC objects may not grant what the writer lacks.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AppsV1Api, CoreV1Api, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";
import { grant, rawAs, statusOf } from "../support/authz.ts";

const user = (name: string) => ({ kind: "User", name, apiGroup: "rbac.authorization.k8s.io" });

describe("LocalCluster authorization mode: admission of writes", { timeout: 60_000 }, () => {
  let cluster: LocalCluster;
  let ownerUid: string;

  before(async () => {
    cluster = await LocalCluster.start({ authorization: true });
    const apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    const owner = await apps.createNamespacedDeployment({ namespace: "default", body: {
      metadata: { name: "owner" },
      spec: { selector: { matchLabels: { a: "b" } }, template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "c", image: "i" }] } } },
    } });
    ownerUid = owner.metadata!.uid!;
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
  });

  async function statusOfCall(call: Promise<unknown>): Promise<{ code: number; message: string }> {
    return call.then(() => ({ code: 200, message: "" }), (e: unknown) => statusOf(e));
  }

  const ownerRef = (block: boolean | undefined) => ({
    apiVersion: "apps/v1", kind: "Deployment", name: "owner", uid: ownerUid, ...(block === undefined ? {} : { blockOwnerDeletion: block }),
  });

  it("needs create for a server-side apply that creates, as kube-apiserver's create-on-update check", async () => {
    await grant(cluster, "default", "patcher", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["get", "patch"] }], [user("pat")]);
    const pat = await cluster.userKubeConfig({ name: "pat" });
    const apply = (name: string) => rawAs(cluster, pat.token, "PATCH", `/api/v1/namespaces/default/configmaps/${name}?fieldManager=pat`, {
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { k: "v" } }, contentType: "application/apply-patch+yaml",
    });
    const created = await apply("new");
    assert.equal(created.code, 403);
    assert.equal(created.body.message, 'configmaps "new" is forbidden: ');
    assert.deepEqual(created.body.details, { name: "new", kind: "configmaps" });
    assert.equal(cluster.peek({ plural: "configmaps" }, "default", "new"), undefined, "nothing was stored");
    await cluster.kubeConfig.makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "new" } } });
    assert.equal((await apply("new")).code, 200, "applying to an existing object is a patch");
    assert.equal(cluster.requests.filter({ verb: "patch", resource: "configmaps", name: "new", code: 403 }).length, 1);
  });

  it("needs update on the owner's finalizers to set blockOwnerDeletion, and nothing more to create with owner references", async () => {
    await grant(cluster, "default", "cm-maker", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["create", "get", "update", "patch"] }], [user("olly")]);
    const olly = (await cluster.userKubeConfig({ name: "olly" })).kubeConfig.makeApiClient(CoreV1Api);
    const create = (name: string, block: boolean | undefined) =>
      statusOfCall(olly.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name, ownerReferences: [ownerRef(block)] } } }));
    assert.equal((await create("free", undefined)).code, 200);
    assert.equal((await create("unblocking", false)).code, 200);
    const blocked = await create("blocking", true);
    assert.equal(blocked.code, 403);
    assert.equal(blocked.message, 'configmaps "blocking" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');

    await grant(cluster, "default", "owner-finalizer", [{ apiGroups: ["apps"], resources: ["deployments/finalizers"], verbs: ["update"], resourceNames: ["owner"] }], [user("olly")]);
    assert.equal((await create("blocking", true)).code, 200);
  });

  it("needs delete on the object to change its owner references, and finalizers to turn blocking on", async () => {
    await grant(cluster, "default", "cm-editor", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["create", "get", "update", "patch"] }], [user("ed")]);
    const ed = (await cluster.userKubeConfig({ name: "ed" })).kubeConfig.makeApiClient(CoreV1Api);
    await ed.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "adopted" } } });
    const patch = (refs: unknown[]) => statusOfCall(ed.patchNamespacedConfigMap(
      { namespace: "default", name: "adopted", body: { metadata: { ownerReferences: refs } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    ));
    const noDelete = await patch([ownerRef(false)]);
    assert.equal(noDelete.code, 403);
    assert.equal(noDelete.message, 'configmaps "adopted" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
    await grant(cluster, "default", "cm-deleter", [{ apiGroups: [""], resources: ["configmaps"], verbs: ["delete"] }], [user("ed")]);
    assert.equal((await patch([ownerRef(false)])).code, 200);
    const turnOn = await patch([ownerRef(true)]);
    assert.equal(turnOn.code, 403, "false → true blocks the owner now");
    assert.match(turnOn.message, /can't set finalizers on/);
    const labels = await statusOfCall(ed.patchNamespacedConfigMap(
      { namespace: "default", name: "adopted", body: { metadata: { labels: { x: "y" } } } },
      setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
    ));
    assert.equal(labels.code, 200, "writes that keep the references need nothing more");
  });

  it("exempts superusers: the admin sets blocking references freely", async () => {
    const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "admin-child", ownerReferences: [ownerRef(true)] } } });
  });

  it("keeps RBAC writers from granting what they do not hold, unless they may escalate or bind", async () => {
    await grant(cluster, "default", "role-admin", [
      { apiGroups: ["rbac.authorization.k8s.io"], resources: ["roles", "rolebindings"], verbs: ["create", "update", "get"] },
      { apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] },
    ], [user("rita")]);
    const rita = (await cluster.userKubeConfig({ name: "rita" })).kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    const role = (name: string, verbs: string[], resources = ["configmaps"]) =>
      statusOfCall(rita.createNamespacedRole({ namespace: "default", body: { metadata: { name }, rules: [{ apiGroups: [""], resources, verbs }] } }));
    assert.equal((await role("subset", ["get"])).code, 200, "a subset of what she holds");
    const more = await role("more", ["get", "delete", "deletecollection"]);
    assert.equal(more.code, 403);
    assert.equal(more.message, 'roles.rbac.authorization.k8s.io "more" is forbidden: user "rita" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["configmaps"], Verbs:["delete" "deletecollection"]}');

    const binding = (name: string, roleName: string, kind = "ClusterRole") => statusOfCall(rita.createNamespacedRoleBinding({ namespace: "default", body: {
      metadata: { name }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind, name: roleName }, subjects: [user("someone")],
    } }));
    assert.equal((await binding("to-subset", "subset", "Role")).code, 200);
    const admin = await binding("to-admin", "cluster-admin");
    assert.equal(admin.code, 403);
    assert.match(admin.message, /^rolebindings\.rbac\.authorization\.k8s\.io "to-admin" is forbidden: user "rita" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}/);
    const missing = await binding("to-nothing", "no-such-role");
    assert.equal(missing.code, 404);
    assert.equal(missing.message, 'clusterroles.rbac.authorization.k8s.io "no-such-role" not found');

    await grant(cluster, "default", "escalator", [
      { apiGroups: ["rbac.authorization.k8s.io"], resources: ["roles"], verbs: ["escalate"] },
      { apiGroups: ["rbac.authorization.k8s.io"], resources: ["clusterroles"], verbs: ["bind"], resourceNames: ["cluster-admin"] },
    ], [user("rita")]);
    assert.equal((await role("more", ["get", "delete", "deletecollection"])).code, 200, "escalate allows it");
    assert.equal((await binding("to-admin", "cluster-admin")).code, 200, "bind on the role allows it");
  });
});
