/**
 * Pinot CRs written for these tests (in `crs/`), beyond the upstream sample: Deployments without
 * storage, several nodes of one type, a partial deploymentOrder, StatefulSets and Deployments
 * with storage and odd-but-valid fields, and specs the operator cannot run.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { raw, waitFor } from "../../support/wait.ts";
import { get, list, namespace, reconciles, startHarness, testCr, waitForPhase } from "./harness.ts";
import type { Harness } from "./harness.ts";

const NS = "pinot-variants";
const deploy = (name: string) => `/apis/apps/v1/namespaces/${NS}/deployments/${name}`;
const statefulSet = (name: string) => `/apis/apps/v1/namespaces/${NS}/statefulsets/${name}`;
const claim = (name: string) => `/api/v1/namespaces/${NS}/persistentvolumeclaims/${name}`;
const pinotPath = (name: string) => `/apis/datainfra.io/v1beta1/namespaces/${NS}/pinots/${name}`;
const env = (w: any) => Object.fromEntries(w.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value]));

describe("pinot example: CRs beyond the sample", () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await namespace(h, NS);
  });
  after(() => h.stop());

  it("Deployments without storage, two nodes of one type, a partial deploymentOrder", async () => {
    await h.client.create({ ...testCr("stateless.yaml"), metadata: { name: "lean", namespace: NS } });
    const pinot = await waitForPhase(h, NS, "lean", "Ready");
    assert.deepEqual(pinot.status!.nodes!.map((n) => [n.name, n.workload, n.replicas, n.readyReplicas]),
      [["controller", "Deployment", 1, 1], ["broker-a", "Deployment", 2, 2], ["broker-b", "Deployment", 1, 1]],
      "the listed node type first, then the others in spec order");
    for (const node of ["controller", "broker-a", "broker-b"]) {
      const d = await get(h, deploy(`lean-${node}`));
      assert.ok(d, `Deployment lean-${node}`);
      assert.equal(d.metadata.ownerReferences[0].uid, pinot.metadata!.uid);
      assert.ok(!d.spec.template.spec.containers[0].args.includes("-zkAddress"), "no ZooKeeper address given, none passed");
      assert.ok(await get(h, `/api/v1/namespaces/${NS}/services/lean-${node}`));
      assert.ok(await get(h, `/api/v1/namespaces/${NS}/configmaps/lean-${node}-config`));
    }
    const brokerA = await get(h, deploy("lean-broker-a"));
    const brokerB = await get(h, deploy("lean-broker-b"));
    assert.deepEqual(brokerA.spec.selector.matchLabels, { "app.kubernetes.io/instance": "lean", "pinot.datainfra.io/node": "broker-a" });
    assert.notDeepEqual(brokerA.spec.selector, brokerB.spec.selector, "nodes of one type select only their own pods");
    assert.equal((await get(h, `/api/v1/namespaces/${NS}/services/lean-broker-a`)).spec.type, "NodePort");
    assert.equal((await list(h, `/api/v1/namespaces/${NS}/pods?labelSelector=pinot.datainfra.io/node%3Dbroker-a`)).length, 2);
  });

  it("StatefulSets and Deployments with storage and odd-but-valid fields; a removed Deployment node keeps its claims", async () => {
    await h.client.create({ ...testCr("mixed.yaml"), metadata: { name: "mixed", namespace: NS } });
    const pinot = await waitForPhase(h, NS, "mixed", "Ready");
    assert.deepEqual(pinot.status!.nodes!.map((n) => [n.name, n.workload, n.readyReplicas]),
      [["controller", "StatefulSet", 2], ["server", "Deployment", 1], ["minion", "Deployment", 0]]);

    const controller = await get(h, statefulSet("mixed-controller"));
    assert.deepEqual(controller.spec.volumeClaimTemplates.map((t: any) => [t.metadata.name, t.spec.resources.requests.storage]), [["data", "2Gi"], ["logs", "500Mi"]]);
    const pod = controller.spec.template;
    assert.equal(pod.metadata.labels.team, "analytics");
    assert.equal(pod.metadata.annotations["prometheus.io/scrape"], "true");
    assert.deepEqual(pod.spec.nodeSelector, { disktype: "ssd" });
    assert.equal(pod.spec.tolerations[0].key, "dedicated");
    const c = pod.spec.containers[0];
    assert.equal(c.imagePullPolicy, "IfNotPresent");
    assert.equal(c.startupProbe.tcpSocket.port, 9000);
    assert.equal(c.resources.limits.memory, "2Gi");
    assert.deepEqual(c.volumeMounts.map((m: any) => m.name), ["pinot-config", "data", "logs", "scratch"]);
    assert.ok(pod.spec.volumes.some((v: any) => v.name === "scratch" && v.emptyDir));
    assert.equal(env(controller).PLUGINS_INCLUDE, "pinot-s3,pinot-parquet");
    for (const i of [0, 1]) for (const t of ["data", "logs"]) assert.ok(await get(h, claim(`${t}-mixed-controller-${i}`)), `${t} claim of pod ${i}`);

    const server = await get(h, deploy("mixed-server"));
    assert.equal(env(server).JAVA_OPTS, "-Xmx4G", "the env of k8sConfig wins over java_opts");
    assert.deepEqual(server.spec.template.spec.volumes.find((v: any) => v.name === "segments").persistentVolumeClaim, { claimName: "mixed-server-segments" });
    const serverClaim = await get(h, claim("mixed-server-segments"));
    assert.equal(serverClaim.spec.resources.requests.storage, "5Gi");
    assert.equal(serverClaim.metadata.ownerReferences, undefined, "a Deployment's claim holds data: no owner reference, kept when the Pinot goes");
    assert.match((await get(h, `/api/v1/namespaces/${NS}/configmaps/mixed-server-config`)).data["pinot-server.conf"], /^pinot\.server\.netty\.port=8098\npinot\.server\.storage\.factory\.class\.s3=/);
    assert.equal((await get(h, deploy("mixed-minion"))).spec.replicas, 0);

    const server_ = pinot.spec.nodes.findIndex((n) => n.name === "server");
    assert.equal((await raw(h.cluster.url, "PATCH", pinotPath("mixed"), [{ op: "remove", path: `/spec/nodes/${server_}` }], "application/json-patch+json")).code, 200);
    await waitForPhase(h, NS, "mixed", "Ready");
    await waitFor(async () => !(await get(h, deploy("mixed-server"))), "the server Deployment to be pruned");
    assert.ok(await get(h, claim("mixed-server-segments")), "its claim is kept");
  });

  it("a spec the operator cannot run: status Invalid, one Warning event naming every problem, no retries; fixing it converges", async () => {
    const errorsBefore = await errorReconciles(h);
    await h.client.create({ ...testCr("invalid.yaml"), metadata: { name: "broken", namespace: NS } });
    const pinot = await waitForPhase(h, NS, "broken", "Invalid");
    const ready = pinot.status!.conditions!.find((c) => c.type === "Ready")!;
    assert.equal(ready.status, "False");
    assert.equal(ready.reason, "InvalidSpec");
    assert.match(ready.message!, /spec\.nodes\[0\]\.k8sConfig: "contrller" names no spec\.k8sConfig entry; use one of controller/);
    assert.match(ready.message!, /spec\.nodes\[1\]\.kind: "DaemonSet" is not a workload kind/);
    assert.match(ready.message!, /spec\.nodes\[1\]\.nodeType: "zookeeper" is not a Pinot node type/);
    const warnings = await waitFor(async () => {
      const events = (await list(h, `/apis/events.k8s.io/v1/namespaces/${NS}/events`)).filter((e: any) => e.regarding.name === "broken");
      return events.length ? events : undefined;
    }, "the Warning event");
    assert.deepEqual(warnings.map((e: any) => [e.type, e.reason, e.series?.count]), [["Warning", "InvalidSpec", undefined]]);
    assert.equal(await errorReconciles(h), errorsBefore, "an invalid spec is not an error retried with backoff");
    assert.equal((await list(h, `/apis/apps/v1/namespaces/${NS}/statefulsets?labelSelector=app.kubernetes.io/instance%3Dbroken`)).length, 0, "nothing is built");

    // A resync (a label) writes no second event; then the fix converges.
    const before = await reconciles(h);
    await raw(h.cluster.url, "PATCH", pinotPath("broken"), { metadata: { labels: { seen: "yes" } } }, "application/merge-patch+json");
    await waitFor(async () => (await reconciles(h)) > before, "a reconcile after the label");
    assert.equal((await list(h, `/apis/events.k8s.io/v1/namespaces/${NS}/events`)).filter((e: any) => e.regarding.name === "broken").length, 1);
    assert.equal((await raw(h.cluster.url, "PATCH", pinotPath("broken"), [
      { op: "replace", path: "/spec/nodes/0/k8sConfig", value: "controller" },
      { op: "remove", path: "/spec/nodes/1" },
    ], "application/json-patch+json")).code, 200);
    const fixed = await waitForPhase(h, NS, "broken", "Ready");
    assert.equal(fixed.status!.conditions!.find((c) => c.type === "Ready")!.status, "True");
  });

  it("what the Builder refuses (a mount of a volume nobody defines) is reported the same way", async () => {
    const cr = testCr("stateless.yaml");
    cr.spec.k8sConfig[0]!.volumeMount = [{ name: "missing", mountPath: "/x" }];
    await h.client.create({ ...cr, metadata: { name: "unmounted", namespace: NS } });
    const pinot = await waitForPhase(h, NS, "unmounted", "Invalid");
    const ready = pinot.status!.conditions!.find((c) => c.type === "Ready")!;
    assert.equal(ready.reason, "InvalidSpec");
    assert.match(ready.message!, /missing/);
  });
});

async function errorReconciles(h: Harness): Promise<number> {
  const m = /^controller_runtime_reconcile_total\{controller="pinot",result="error"\} (\d+)$/m.exec(await h.mgr.metrics.text());
  return m ? Number(m[1]) : 0;
}
