/**
 * The RBAC kinds (`rbac.authorization.k8s.io/v1` Role, ClusterRole, RoleBinding,
 * ClusterRoleBinding) and the access reviews on a LocalCluster WITHOUT authorization mode:
 * manifests apply with kubectl, validation and defaults are kube-apiserver's, and every review
 * says yes (every request is allowed).
 */
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AuthorizationV1Api, RbacAuthorizationV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";
import { KUBECTL } from "../support/kubectl.ts";
import { statusOf } from "../support/authz.ts";

const MANIFESTS = `apiVersion: v1
kind: ServiceAccount
metadata:
  name: widget-operator
  namespace: default
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widget-operator
rules:
- apiGroups: [example.com]
  resources: [widgets, widgets/status, widgets/finalizers]
  verbs: [get, list, watch, update, patch]
- nonResourceURLs: [/metrics]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: widget-operator
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: widget-operator
subjects:
- kind: ServiceAccount
  name: widget-operator
  namespace: default
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: leader-election
  namespace: default
rules:
- apiGroups: [coordination.k8s.io]
  resources: [leases]
  verbs: [get, create, update]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: leader-election
  namespace: default
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: leader-election
subjects:
- kind: ServiceAccount
  name: widget-operator
- kind: User
  name: alice
- kind: Group
  name: ops
`;

describe("RBAC kinds on a LocalCluster without authorization mode", { timeout: 120_000 }, () => {
  let cluster: LocalCluster;
  let rbac: RbacAuthorizationV1Api;
  let files: string;
  let cacheDir: string;

  before(async () => {
    cluster = await LocalCluster.start();
    rbac = cluster.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
    files = await mkdtemp(path.join(tmpdir(), "rbac-kinds-"));
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
    if (files) await rm(files, { recursive: true, force: true });
  });
  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), "kubectl-cache-"));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(KUBECTL!, ["--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir, ...args], { timeout: 30_000, killSignal: "SIGKILL" },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }));
    });
  }

  async function invalid(call: Promise<unknown>): Promise<string> {
    const err = await call.then(() => undefined, (e: unknown) => e);
    assert.ok(err, "expected a 422, the call succeeded");
    const { code, message } = statusOf(err);
    assert.equal(code, 422, message);
    return message;
  }

  const ref = (kind: string, name: string) => ({ apiGroup: "rbac.authorization.k8s.io", kind, name });

  it("applies RBAC manifests with kubectl apply -f, client-side and server-side", { skip: KUBECTL ? false : "no kubectl" }, async () => {
    const file = path.join(files, "rbac.yaml");
    await writeFile(file, MANIFESTS);
    const applied = await kubectl(["apply", "-f", file]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual(applied.stdout.trim().split("\n"), [
      "serviceaccount/widget-operator created",
      "clusterrole.rbac.authorization.k8s.io/widget-operator created",
      "clusterrolebinding.rbac.authorization.k8s.io/widget-operator created",
      "role.rbac.authorization.k8s.io/leader-election created",
      "rolebinding.rbac.authorization.k8s.io/leader-election created",
    ]);
    // (The RoleBinding reports "configured" again, as on kube-apiserver: its live subjects carry
    // the defaulted apiGroup the manifest leaves out, and kubectl replaces atomic lists that differ.)
    assert.match((await kubectl(["apply", "-f", file])).stdout, /role.rbac.authorization.k8s.io\/leader-election unchanged/);
    await writeFile(file, MANIFESTS.replace("verbs: [get, create, update]", "verbs: [get, create, update, patch]"));
    assert.match((await kubectl(["apply", "-f", file])).stdout, /role.rbac.authorization.k8s.io\/leader-election configured/);
    assert.deepEqual(cluster.peek({ group: "rbac.authorization.k8s.io", plural: "roles" }, "default", "leader-election")?.rules,
      [{ apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "create", "update", "patch"] }]);
    const ssaFile = path.join(files, "ssa.yaml");
    await writeFile(ssaFile, MANIFESTS.split("---\n")[1]!.replaceAll("widget-operator", "ssa-role"));
    const ssa = await kubectl(["apply", "--server-side", "-f", ssaFile]);
    assert.equal(ssa.code, 0, ssa.stderr);
    assert.equal(ssa.stdout, "clusterrole.rbac.authorization.k8s.io/ssa-role serverside-applied\n");

    const binding = cluster.peek({ group: "rbac.authorization.k8s.io", plural: "rolebindings" }, "default", "leader-election") as any;
    assert.deepEqual(binding.subjects, [
      { kind: "ServiceAccount", name: "widget-operator" },
      { kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" },
      { kind: "Group", name: "ops", apiGroup: "rbac.authorization.k8s.io" },
    ], "User and Group subjects get their apiGroup by default");
    const wide = await kubectl(["get", "rolebindings", "-o", "wide"]);
    assert.match(wide.stdout, /leader-election\s+Role\/leader-election\s+\S+\s+alice\s+ops\s+\/widget-operator\n/);
    const roles = await kubectl(["get", "clusterroles"]);
    assert.match(roles.stdout, /^NAME\s+CREATED AT\nssa-role\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\nwidget-operator\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
  });

  it("reads the protobuf bodies of kubectl create role|clusterrole|rolebinding|clusterrolebinding", { skip: KUBECTL ? false : "no kubectl" }, async () => {
    for (const args of [
      ["create", "role", "pod-reader", "--verb=get,list", "--resource=pods,deployments.apps", "--resource-name=p1"],
      ["create", "clusterrole", "metrics-reader", "--verb=get", "--non-resource-url=/metrics"],
      ["create", "rolebinding", "pod-readers", "--role=pod-reader", "--user=ann", "--group=devs", "--serviceaccount=kube-system:bot"],
      ["create", "clusterrolebinding", "metrics-readers", "--clusterrole=metrics-reader", "--serviceaccount=default:scraper"],
    ]) {
      const r = await kubectl(args);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    }
    const peek = (plural: string, namespace: string, name: string) => cluster.peek({ group: "rbac.authorization.k8s.io", plural }, namespace, name) as any;
    assert.deepEqual(peek("roles", "default", "pod-reader").rules, [
      { verbs: ["get", "list"], apiGroups: [""], resources: ["pods"], resourceNames: ["p1"] },
      { verbs: ["get", "list"], apiGroups: ["apps"], resources: ["deployments"], resourceNames: ["p1"] },
    ]);
    assert.deepEqual(peek("clusterroles", "", "metrics-reader").rules, [{ verbs: ["get"], nonResourceURLs: ["/metrics"] }]);
    const binding = peek("rolebindings", "default", "pod-readers");
    assert.deepEqual(binding.roleRef, { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "pod-reader" });
    assert.deepEqual(binding.subjects, [
      { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "ann" },
      { kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "devs" },
      { kind: "ServiceAccount", name: "bot", namespace: "kube-system" },
    ]);
    assert.deepEqual(peek("clusterrolebindings", "", "metrics-readers").subjects, [{ kind: "ServiceAccount", name: "scraper", namespace: "default" }]);
  });

  it("keeps a binding's roleRef immutable, with kube-apiserver's 422", async () => {
    await rbac.createNamespacedRoleBinding({ namespace: "default", body: { metadata: { name: "fixed" }, roleRef: ref("ClusterRole", "view"), subjects: [] } });
    const current = await rbac.readNamespacedRoleBinding({ namespace: "default", name: "fixed" });
    const message = await invalid(rbac.replaceNamespacedRoleBinding({ namespace: "default", name: "fixed", body: { ...current, roleRef: ref("ClusterRole", "edit") } }));
    assert.equal(message, 'RoleBinding.rbac.authorization.k8s.io "fixed" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef');
    const subjects = await rbac.replaceNamespacedRoleBinding({ namespace: "default", name: "fixed", body: { ...current, subjects: [{ kind: "User", name: "zoe" }] } });
    assert.equal(subjects.subjects?.[0]?.name, "zoe", "subjects may change");
  });

  it("validates rules, role references and subjects as kube-apiserver does", async () => {
    assert.equal(await invalid(rbac.createNamespacedRole({ namespace: "default", body: { metadata: { name: "r1" }, rules: [{ apiGroups: [""], resources: ["pods"], verbs: [] }] } })),
      'Role.rbac.authorization.k8s.io "r1" is invalid: rules[0].verbs: Required value: verbs must contain at least one value');
    assert.equal(await invalid(rbac.createClusterRole({ body: { metadata: { name: "r2" }, rules: [{ verbs: ["get"] }] } })),
      'ClusterRole.rbac.authorization.k8s.io "r2" is invalid: [rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[0].resources: Required value: resource rules must supply at least one resource]');
    assert.equal(await invalid(rbac.createNamespacedRole({ namespace: "default", body: { metadata: { name: "r3" }, rules: [{ nonResourceURLs: ["/metrics"], verbs: ["get"] }] } })),
      'Role.rbac.authorization.k8s.io "r3" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs');
    assert.equal(await invalid(rbac.createClusterRoleBinding({ body: { metadata: { name: "b1" }, roleRef: ref("Role", "x"), subjects: [{ kind: "ServiceAccount", name: "op" }] } })),
      'ClusterRoleBinding.rbac.authorization.k8s.io "b1" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value]');
    assert.equal(await invalid(rbac.createNamespacedRoleBinding({ namespace: "default", body: { metadata: { name: "b2" }, roleRef: ref("Role", ""), subjects: [{ kind: "Robot", name: "r" }] } })),
      'RoleBinding.rbac.authorization.k8s.io "b2" is invalid: [roleRef.name: Required value, subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]');
    const colon = await rbac.createClusterRole({ body: { metadata: { name: "system:controller:widgets" }, rules: [] } });
    assert.equal(colon.metadata?.name, "system:controller:widgets", "RBAC names are path segments, colons allowed");
  });

  it("answers every access review yes: without authorization mode all is allowed", async () => {
    const authz = cluster.kubeConfig.makeApiClient(AuthorizationV1Api);
    const review = await authz.createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: "delete", resource: "nodes" } } } });
    assert.equal(review.status?.allowed, true);
    assert.equal(review.spec.resourceAttributes?.resource, "nodes", "the spec is echoed");
    const rules = await authz.createSelfSubjectRulesReview({ body: { spec: { namespace: "default" } } });
    assert.deepEqual(rules.status?.resourceRules.map((r) => ({ ...r })), [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }]);
    const missing = await authz.createSelfSubjectAccessReview({ body: { spec: {} } }).then(() => undefined, (e: unknown) => statusOf(e));
    assert.equal(missing?.code, 422);
    assert.equal(missing?.message, 'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
    assert.equal(cluster.peek({ group: "rbac.authorization.k8s.io", plural: "clusterroles" }, "", "cluster-admin"), undefined,
      "no default roles without authorization mode");
  });
});
