/**
 * The real kubectl against LocalCluster's authorization mode: `kubectl auth can-i` (yes/no and
 * exit codes 0/1, `--subresource`, `-n`, `--list`, `--as`), `kubectl auth whoami`, `kubectl
 * create role|rolebinding` (protobuf bodies) and kube-apiserver's 403 texts as kubectl prints them.
 */
import { after, before, beforeEach, afterEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { LocalCluster } from "../../src/testing/index.ts";
import type { UserKubeConfig } from "../../src/testing/index.ts";
import { within } from "../support/wait.ts";
import { KUBECTL } from "../support/kubectl.ts";
import { grant, serviceAccount } from "../support/authz.ts";

describe("kubectl against LocalCluster's authorization mode", {
  skip: KUBECTL ? false : "no kubectl binary on PATH; install kubectl (or set KUBECTL) to run these tests",
  timeout: 120_000,
}, () => {
  let cluster: LocalCluster;
  let reader: UserKubeConfig;
  let cacheDir: string;

  before(async () => {
    cluster = await LocalCluster.start({ authorization: true });
    await grant(cluster, "default", "reader", [
      { apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list"] },
      { apiGroups: ["apps"], resources: ["deployments/status"], verbs: ["patch"] },
    ], [serviceAccount("default", "reader")]);
    reader = await cluster.serviceAccountKubeConfig("default", "reader");
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
  });
  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), "kubectl-cache-"));
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  /** Runs kubectl with a kubeconfig; resolves with its exit code and output, whatever the code. */
  function kubectl(kubeconfigPath: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(KUBECTL!, ["--kubeconfig", kubeconfigPath, "--cache-dir", cacheDir, ...args], { timeout: 30_000, killSignal: "SIGKILL", env: { ...process.env, KUBECONFIG: kubeconfigPath } },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }));
    });
  }

  const canI = (kubeconfigPath: string, ...args: string[]) => kubectl(kubeconfigPath, ["auth", "can-i", ...args]);

  it("answers kubectl auth can-i yes (exit 0) or no (exit 1), per namespace and subresource", async () => {
    assert.deepEqual(await canI(reader.kubeconfigPath, "list", "configmaps"), { code: 0, stdout: "yes\n", stderr: "" });
    const no = await canI(reader.kubeconfigPath, "list", "configmaps", "-n", "kube-system");
    assert.equal(no.code, 1);
    assert.equal(no.stdout, "no\n");
    assert.equal((await canI(reader.kubeconfigPath, "delete", "configmaps")).code, 1);
    assert.equal((await canI(reader.kubeconfigPath, "patch", "deployments", "--subresource=status")).code, 0);
    assert.equal((await canI(reader.kubeconfigPath, "patch", "deployments")).code, 1);
    assert.equal((await canI(reader.kubeconfigPath, "update", "deployments", "--subresource=scale")).code, 1);
    assert.equal((await canI(reader.kubeconfigPath, "get", "configmaps/cm")).code, 0, "a named object");
    assert.equal((await canI(cluster.kubeconfigPath, "delete", "nodes")).code, 0, "the admin may do anything");
    assert.ok(cluster.requests.filter({ verb: "create", resource: "selfsubjectaccessreviews", code: 201 }).some((r) => r.user === reader.user));
  });

  it("lists the rules (kubectl auth can-i --list) and says who one is (kubectl auth whoami)", async () => {
    const list = await canI(reader.kubeconfigPath, "--list");
    assert.equal(list.code, 0, list.stderr);
    const rows = list.stdout.trim().split("\n").map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(rows[0], ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"]);
    assert.ok(rows.some((r) => r.join("|") === "configmaps|[]|[]|[get list]"), list.stdout);
    assert.ok(rows.some((r) => r.join("|") === "deployments.apps/status|[]|[]|[patch]"), list.stdout);
    assert.ok(rows.some((r) => r.join("|") === "[/apis/*]|[]|[get]"), list.stdout);
    const whoami = await kubectl(reader.kubeconfigPath, ["auth", "whoami"]);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.match(whoami.stdout, /Username\s+system:serviceaccount:default:reader\n/);
    assert.match(whoami.stdout, /Groups\s+\[system:serviceaccounts system:serviceaccounts:default system:authenticated\]/);
  });

  it("impersonates for the admin (--as) and shows kube-apiserver's 403 as kubectl prints it", async () => {
    const as = ["--as=system:serviceaccount:default:reader"];
    assert.equal((await canI(cluster.kubeconfigPath, "list", "configmaps", ...as)).code, 0);
    assert.equal((await canI(cluster.kubeconfigPath, "list", "secrets", ...as)).code, 1);
    const denied = await kubectl(reader.kubeconfigPath, ["get", "secrets"]);
    assert.equal(denied.code, 1);
    assert.equal(denied.stderr.trim(), 'Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:default:reader" cannot list resource "secrets" in API group "" in the namespace "default"');
    const notAllowed = await kubectl(reader.kubeconfigPath, ["get", "configmaps", "--as=bob"]);
    assert.equal(notAllowed.code, 1);
    assert.match(notAllowed.stderr, /users "bob" is forbidden: User "system:serviceaccount:default:reader" cannot impersonate resource "users" in API group "" at the cluster scope/);
  });

  it("creates roles and bindings with kubectl create (protobuf bodies) that take effect at once", async () => {
    const created = await kubectl(cluster.kubeconfigPath, ["create", "role", "deploy-reader", "--verb=get,list", "--resource=deployments.apps"]);
    assert.equal(created.code, 0, created.stderr);
    const bound = await kubectl(cluster.kubeconfigPath, ["create", "rolebinding", "reader-deploys", "--role=deploy-reader", "--serviceaccount=default:reader"]);
    assert.equal(bound.code, 0, bound.stderr);
    assert.deepEqual(cluster.peek({ group: "rbac.authorization.k8s.io", plural: "roles" }, "default", "deploy-reader")?.rules,
      [{ verbs: ["get", "list"], apiGroups: ["apps"], resources: ["deployments"] }]);
    const listed = await kubectl(reader.kubeconfigPath, ["get", "deployments"]);
    assert.equal(listed.code, 0, listed.stderr);
    const wide = await kubectl(cluster.kubeconfigPath, ["get", "rolebinding", "reader-deploys", "-o", "wide"]);
    assert.match(wide.stdout, /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\nreader-deploys\s+Role\/deploy-reader\s+\S+\s+default\/reader\n$/);
  });
});
