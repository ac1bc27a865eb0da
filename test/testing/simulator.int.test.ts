import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { AppsV1Api, CoreV1Api } from "@kubernetes/client-node";
import type { V1Deployment, V1Pod, V1StatefulSet } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/local-cluster.ts";
import { waitFor, within } from "../support/wait.ts";

const NS = "default";

function podBody(name: string): V1Pod {
  return { metadata: { name, labels: { app: name } }, spec: { containers: [{ name: "main", image: "nginx:1.27" }] } };
}

function deploymentBody(name: string, replicas: number): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "main", image: "nginx:1.27" }] } },
    },
  };
}

function statefulSetBody(name: string, replicas: number): V1StatefulSet {
  return {
    metadata: { name },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "main", image: "nginx:1.27", volumeMounts: [{ name: "data", mountPath: "/data" }] }] },
      },
      volumeClaimTemplates: [
        { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
      ],
    },
  };
}

/** client-node returns class instances; compare their JSON. */
function plain(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v ?? null));
}

function isReady(p: V1Pod): boolean {
  return p.status?.phase === "Running" && (p.status.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

describe("LocalCluster workload simulation", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  before(async () => {
    cluster = await LocalCluster.start({ simulate: { readyDelayMs: 10 } });
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  async function podsOf(app: string): Promise<V1Pod[]> {
    return (await core.listNamespacedPod({ namespace: NS, labelSelector: `app=${app}` })).items;
  }

  it("runs a bare Pod on the simulated node with IPs and container statuses", async () => {
    await core.createNamespacedPod({ namespace: NS, body: podBody("bare") });
    const pod = await waitFor(async () => {
      const p = await core.readNamespacedPod({ name: "bare", namespace: NS });
      return isReady(p) ? p : undefined;
    }, "pod bare Running");
    assert.equal(pod.spec?.nodeName, "localcluster-node");
    assert.match(pod.status?.podIP ?? "", /^10\.244\.\d+\.\d+$/);
    assert.ok(pod.status?.hostIP);
    assert.ok(pod.status?.startTime);
    const types = (pod.status?.conditions ?? []).filter((c) => c.status === "True").map((c) => c.type);
    for (const t of ["PodScheduled", "Initialized", "ContainersReady", "Ready"]) assert.ok(types.includes(t), t);
    const [cs] = pod.status?.containerStatuses ?? [];
    assert.equal(cs?.name, "main");
    assert.equal(cs?.image, "nginx:1.27");
    assert.equal(cs?.ready, true);
    assert.equal(cs?.started, true);
    assert.equal(cs?.restartCount, 0);
    assert.ok(cs?.state?.running?.startedAt);
    const managers = (pod.metadata?.managedFields ?? []).map((m) => `${m.manager}/${m.subresource ?? ""}`);
    assert.ok(managers.includes("localcluster-simulator/status"), managers.join(", "));
  });

  it("binds any claim, and starts a Pod that mounts a claim only once the claim is Bound", async () => {
    const body = podBody("mounts");
    body.spec!.volumes = [{ name: "data", persistentVolumeClaim: { claimName: "late" } }];
    await core.createNamespacedPod({ namespace: NS, body });
    // Created after, with the same delay: once it runs, the Pod above would have too.
    await core.createNamespacedPod({ namespace: NS, body: podBody("witness") });
    await waitFor(async () => isReady(await core.readNamespacedPod({ name: "witness", namespace: NS })), "witness Running");
    assert.equal((await core.readNamespacedPod({ name: "mounts", namespace: NS })).status?.phase, "Pending");

    await core.createNamespacedPersistentVolumeClaim({
      namespace: NS,
      body: { metadata: { name: "late" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2Gi" } } } },
    });
    await waitFor(async () => isReady(await core.readNamespacedPod({ name: "mounts", namespace: NS })), "pod mounts Running");
    const pvc = await core.readNamespacedPersistentVolumeClaim({ name: "late", namespace: NS });
    assert.equal(pvc.status?.phase, "Bound");
    assert.equal(pvc.status?.capacity?.storage, "2Gi");
    assert.equal(pvc.spec?.volumeName, `pvc-${pvc.metadata?.uid}`);
  });

  it("makes a Deployment ready, then rolls its Pods to a new template", async () => {
    await apps.createNamespacedDeployment({ namespace: NS, body: deploymentBody("shop", 2) });
    const ready = await waitFor(async () => {
      const d = await apps.readNamespacedDeployment({ name: "shop", namespace: NS });
      return d.status?.readyReplicas === 2 && d.status.observedGeneration === d.metadata?.generation ? d : undefined;
    }, "deployment shop ready");
    assert.equal(ready.status?.availableReplicas, 2);
    assert.equal(ready.status?.updatedReplicas, 2);
    const firstSets = (await apps.listNamespacedReplicaSet({ namespace: NS, labelSelector: "app=shop" })).items;
    assert.equal(firstSets.length, 1);
    const first = firstSets[0]!;
    const hash = first.metadata?.labels?.["pod-template-hash"] ?? "";
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{10}$/);
    assert.equal(first.metadata?.name, `shop-${hash}`);
    assert.equal(first.metadata?.ownerReferences?.[0]?.uid, ready.metadata?.uid);
    assert.equal(first.metadata?.ownerReferences?.[0]?.controller, true);
    const oldPods = await podsOf("shop");
    assert.equal(oldPods.length, 2);
    for (const p of oldPods) {
      assert.ok(isReady(p), p.metadata?.name);
      assert.match(p.metadata?.name ?? "", new RegExp(`^shop-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      assert.deepEqual(p.metadata?.ownerReferences?.map((r) => [r.kind, r.name, r.controller, r.blockOwnerDeletion]),
        [["ReplicaSet", first.metadata?.name, true, true]]);
    }

    const changed = await apps.patchNamespacedDeployment({
      name: "shop", namespace: NS,
      body: [{ op: "add", path: "/spec/template/spec/containers/0/env", value: [{ name: "MODE", value: "v2" }] }],
    });
    assert.equal(changed.metadata?.generation, 2);
    const rolled = await waitFor(async () => {
      const d = await apps.readNamespacedDeployment({ name: "shop", namespace: NS });
      const s = d.status;
      return s?.observedGeneration === 2 && s.replicas === 2 && s.updatedReplicas === 2 && s.readyReplicas === 2 && s.availableReplicas === 2
        ? d : undefined;
    }, "deployment shop rolled out");
    const progressing = rolled.status?.conditions?.find((c) => c.type === "Progressing");
    assert.equal(progressing?.reason, "NewReplicaSetAvailable");
    assert.equal(rolled.status?.conditions?.find((c) => c.type === "Available")?.status, "True");
    assert.equal(rolled.status?.unavailableReplicas, undefined);

    const sets = (await apps.listNamespacedReplicaSet({ namespace: NS, labelSelector: "app=shop" })).items;
    assert.equal(sets.length, 2);
    const next = sets.find((s) => s.metadata?.name !== first.metadata?.name)!;
    assert.notEqual(next.metadata?.labels?.["pod-template-hash"], hash);
    assert.equal(next.spec?.replicas, 2);
    assert.equal(sets.find((s) => s.metadata?.name === first.metadata?.name)?.spec?.replicas, 0);
    const newPods = await waitFor(async () => {
      const pods = await podsOf("shop");
      return pods.length === 2 && pods.every(isReady) ? pods : undefined;
    }, "only the new pods left");
    const oldNames = new Set(oldPods.map((p) => p.metadata?.name));
    for (const p of newPods) {
      assert.ok(!oldNames.has(p.metadata?.name), `${p.metadata?.name} is an old pod`);
      assert.equal(p.metadata?.ownerReferences?.[0]?.name, next.metadata?.name);
      assert.deepEqual(plain(p.spec?.containers[0]?.env), [{ name: "MODE", value: "v2" }]);
    }
  });

  it("runs a StatefulSet with ordinal Pods and bound claims, and scales it down from the top", async () => {
    const created = await apps.createNamespacedStatefulSet({ namespace: NS, body: statefulSetBody("web", 3) });
    const sts = await waitFor(async () => {
      const s = await apps.readNamespacedStatefulSet({ name: "web", namespace: NS });
      return s.status?.readyReplicas === 3 && s.status.observedGeneration === s.metadata?.generation ? s : undefined;
    }, "statefulset web ready");
    assert.equal(sts.status?.replicas, 3);
    assert.equal(sts.status?.currentReplicas, 3);
    assert.equal(sts.status?.updatedReplicas, 3);
    assert.equal(sts.status?.availableReplicas, 3);
    assert.ok(sts.status?.updateRevision?.startsWith("web-"));
    assert.equal(sts.status?.currentRevision, sts.status?.updateRevision);

    const pods = await podsOf("web");
    assert.deepEqual(pods.map((p) => p.metadata?.name).sort(), ["web-0", "web-1", "web-2"]);
    for (const p of pods) {
      const name = p.metadata?.name ?? "";
      assert.ok(isReady(p), name);
      assert.equal(p.metadata?.labels?.["statefulset.kubernetes.io/pod-name"], name);
      assert.equal(p.metadata?.labels?.["controller-revision-hash"], sts.status?.updateRevision);
      assert.equal(p.metadata?.ownerReferences?.[0]?.uid, created.metadata?.uid);
      assert.equal(p.spec?.hostname, name);
      assert.deepEqual(plain(p.spec?.volumes?.find((v) => v.name === "data")?.persistentVolumeClaim), { claimName: `data-${name}` });
    }
    for (const i of [0, 1, 2]) {
      const pvc = await core.readNamespacedPersistentVolumeClaim({ name: `data-web-${i}`, namespace: NS });
      assert.equal(pvc.status?.phase, "Bound");
      assert.equal(pvc.status?.capacity?.storage, "1Gi");
      assert.equal(pvc.metadata?.ownerReferences, undefined);
      assert.equal(pvc.metadata?.labels?.app, "web");
    }

    await apps.patchNamespacedStatefulSet({ name: "web", namespace: NS, body: [{ op: "replace", path: "/spec/replicas", value: 1 }] });
    await waitFor(async () => {
      const s = await apps.readNamespacedStatefulSet({ name: "web", namespace: NS });
      const names = (await podsOf("web")).map((p) => p.metadata?.name);
      return s.status?.observedGeneration === 2 && s.status.replicas === 1 && s.status.readyReplicas === 1 && names.join() === "web-0";
    }, "statefulset web scaled to 1");
    const claims = (await core.listNamespacedPersistentVolumeClaim({ namespace: NS, labelSelector: "app=web" })).items;
    assert.deepEqual(claims.map((c) => c.metadata?.name).sort(), ["data-web-0", "data-web-1", "data-web-2"], "claims are kept");
  });

  it("recreates StatefulSet Pods whose template revision is outdated", async () => {
    const body = statefulSetBody("db", 2);
    body.spec!.podManagementPolicy = "Parallel";
    await apps.createNamespacedStatefulSet({ namespace: NS, body });
    const before = await waitFor(async () => {
      const pods = await podsOf("db");
      return pods.length === 2 && pods.every(isReady) ? pods : undefined;
    }, "statefulset db ready");
    await apps.patchNamespacedStatefulSet({
      name: "db", namespace: NS,
      body: [{ op: "add", path: "/spec/template/spec/containers/0/env", value: [{ name: "MODE", value: "v2" }] }],
    });
    const sts = await waitFor(async () => {
      const s = await apps.readNamespacedStatefulSet({ name: "db", namespace: NS });
      const st = s.status;
      return st?.observedGeneration === 2 && st.updatedReplicas === 2 && st.readyReplicas === 2 && st.currentRevision === st.updateRevision
        ? s : undefined;
    }, "statefulset db rolled out");
    const after = await podsOf("db");
    assert.deepEqual(after.map((p) => p.metadata?.name).sort(), ["db-0", "db-1"]);
    const oldUids = new Set(before.map((p) => p.metadata?.uid));
    for (const p of after) {
      assert.ok(!oldUids.has(p.metadata?.uid), `${p.metadata?.name} was not recreated`);
      assert.equal(p.metadata?.labels?.["controller-revision-hash"], sts.status?.updateRevision);
      assert.deepEqual(plain(p.spec?.containers[0]?.env), [{ name: "MODE", value: "v2" }]);
    }
  });

  it("scales a bare ReplicaSet up and down", async () => {
    await apps.createNamespacedReplicaSet({ namespace: NS, body: { metadata: { name: "rs" }, spec: { ...deploymentBody("rs", 3).spec! } } });
    await waitFor(async () => (await apps.readNamespacedReplicaSet({ name: "rs", namespace: NS })).status?.readyReplicas === 3, "rs ready");
    await apps.patchNamespacedReplicaSet({ name: "rs", namespace: NS, body: [{ op: "replace", path: "/spec/replicas", value: 1 }] });
    const rs = await waitFor(async () => {
      const r = await apps.readNamespacedReplicaSet({ name: "rs", namespace: NS });
      return r.status?.observedGeneration === 2 && r.status.replicas === 1 ? r : undefined;
    }, "rs scaled to 1");
    assert.equal(rs.status?.readyReplicas, 1);
    assert.equal(rs.status?.fullyLabeledReplicas, 1);
    assert.equal((await podsOf("rs")).length, 1);
  });
});

describe("LocalCluster without simulation", () => {
  it("leaves Pods Pending, and stop() cancels pending simulation", async () => {
    const plain = await LocalCluster.start();
    const stopped = await LocalCluster.start({ simulate: { readyDelayMs: 20 } });
    const witness = await LocalCluster.start({ simulate: { readyDelayMs: 20 } });
    try {
      await plain.kubeConfig.makeApiClient(CoreV1Api).createNamespacedPod({ namespace: NS, body: podBody("idle") });
      await stopped.kubeConfig.makeApiClient(CoreV1Api).createNamespacedPod({ namespace: NS, body: podBody("idle") });
      await within(stopped.stop(), "stopped.stop()");
      // The witness's Pod was created last with the same delay: once it runs, the others would have too.
      const witnessCore = witness.kubeConfig.makeApiClient(CoreV1Api);
      await witnessCore.createNamespacedPod({ namespace: NS, body: podBody("idle") });
      await waitFor(async () => isReady(await witnessCore.readNamespacedPod({ name: "idle", namespace: NS })), "witness pod Running");
      const pending = await plain.kubeConfig.makeApiClient(CoreV1Api).readNamespacedPod({ name: "idle", namespace: NS });
      assert.equal(pending.status?.phase, "Pending");
      assert.equal(pending.spec?.nodeName, undefined);
      assert.equal((stopped.peek({ plural: "pods" }, NS, "idle")?.status as { phase?: string } | undefined)?.phase, "Pending");
    } finally {
      await within(plain.stop(), "plain.stop()");
      await within(stopped.stop(), "stopped.stop()");
      await within(witness.stop(), "witness.stop()");
    }
  });
});
