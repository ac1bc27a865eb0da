/**
 * The upstream pinot-basic sample, run by the pinot example operator on LocalCluster with
 * simulated workloads: convergence, a no-op resync, a config change of one node, an ordered
 * upgrade of every node, and removing a node. The steps share one Pinot, in order.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { raw, waitFor } from "../../support/wait.ts";
import { openWatch } from "../../support/watch-stream.ts";
import { Pinot, imagePatch, nodeConfigPatch, removeNodePatch } from "../../../examples/pinot/operator.ts";
import { CHILD_RESOURCES, get, getPinot, list, namespace, reconciles, sampleCr, startHarness, waitForPhase } from "./harness.ts";
import type { Harness } from "./harness.ts";

const NS = "pinot-sample";
const NAME = "pinot-simple";
const NODES = ["pinot-controller", "pinot-broker", "pinot-server", "pinot-minion"] as const;
const TYPES = ["controller", "broker", "server", "minion"] as const;
const sts = (node: string) => `/apis/apps/v1/namespaces/${NS}/statefulsets/${NAME}-${node}`;
const cm = (node: string) => `/api/v1/namespaces/${NS}/configmaps/${NAME}-${node}-config`;
const svc = (node: string) => `/api/v1/namespaces/${NS}/services/${NAME}-${node}`;
const pinotPath = `/apis/datainfra.io/v1beta1/namespaces/${NS}/pinots/${NAME}`;
const ref = { ...Pinot, name: NAME, namespace: NS };
const configHashEnv = (s: any): any[] => s.spec.template.spec.containers[0].env.filter((e: any) => /HASH/i.test(e.name));

describe("pinot example: the upstream pinot-basic sample", () => {
  let h: Harness;
  let uid: string;
  before(async () => {
    h = await startHarness();
    await namespace(h, NS);
  });
  after(() => h.stop());

  it("converges: per node a ConfigMap, a StatefulSet and a Service, owned by the Pinot, status Ready", async () => {
    const sample = sampleCr();
    await h.client.create({ ...sample, metadata: { ...sample.metadata, namespace: NS } });
    const pinot = await waitForPhase(h, NS, NAME, "Ready");
    uid = pinot.metadata!.uid!;
    assert.deepEqual(pinot.status!.nodes!.map((n) => [n.name, n.nodeType, n.workload, n.readyReplicas]),
      NODES.map((n, i) => [n, TYPES[i], "StatefulSet", 1]));
    const ready = pinot.status!.conditions!.find((c) => c.type === "Ready")!;
    assert.equal(ready.status, "True");
    assert.equal(ready.reason, "RolledOut");

    for (const [i, node] of NODES.entries()) {
      const type = TYPES[i]!;
      const k8s = sample.spec.k8sConfig.find((c) => c.name === type)!;
      const config = sample.spec.pinotNodeConfig.find((c) => c.name === type)!;
      const [c, s, v] = [await get(h, cm(node)), await get(h, sts(node)), await get(h, svc(node))];
      for (const o of [c, s, v]) {
        assert.deepEqual(o.metadata.ownerReferences.map((r: any) => [r.kind, r.name, r.uid, r.controller]), [["Pinot", NAME, uid, true]], `${o.kind} ${o.metadata.name} is owned by the Pinot`);
        assert.equal(o.metadata.labels["app.kubernetes.io/component"], type);
      }
      assert.equal(c.data[`pinot-${type}.conf`], config.data);
      const pod = s.spec.template.spec;
      const container = pod.containers[0];
      assert.equal(container.image, "apachepinot/pinot:latest");
      assert.equal(container.args[0], `Start${type[0]!.toUpperCase()}${type.slice(1)}`);
      assert.deepEqual(container.args.slice(1), ["-clusterName", NAME, "-zkAddress", "zk-pinot-zookeeper-headless.pinot:2181", "-configFileName", `/var/pinot/${type}/config/pinot-${type}.conf`]);
      assert.equal(container.env.find((e: any) => e.name === "JAVA_OPTS").value, config.java_opts);
      assert.equal(container.env.find((e: any) => e.name === "LOG4J_CONSOLE_LEVEL").value, "info");
      assert.equal(configHashEnv(s).length, 1, "the ConfigMap's hash is in the pod template");
      assert.deepEqual(container.ports.map((p: any) => p.containerPort), k8s.port.map((p) => p.containerPort));
      assert.equal(container.livenessProbe.httpGet.path, "/health");
      assert.equal(container.readinessProbe.httpGet.port, k8s.readinessProbe!.httpGet!.port);
      assert.equal(pod.serviceAccountName, "default");
      const storage = k8s.storageConfig![0]!;
      assert.deepEqual(s.spec.volumeClaimTemplates.map((t: any) => [t.metadata.name, t.spec.resources.requests.storage, t.spec.storageClassName]),
        [[storage.name, "1Gi", "standard"]]);
      assert.deepEqual(container.volumeMounts.map((m: any) => [m.name, m.mountPath]),
        [["pinot-config", `/var/pinot/${type}/config`], [storage.name, storage.mountPath]]);
      assert.equal(s.spec.serviceName, `${NAME}-${node}`);
      assert.equal(s.spec.replicas, 1);
      assert.equal(v.spec.type, k8s.service.type);
      assert.deepEqual(v.spec.ports.map((p: any) => p.port), k8s.service.ports!.map((p) => p.port));
      assert.deepEqual(v.spec.selector, { "app.kubernetes.io/instance": NAME, "pinot.datainfra.io/node": node });
      assert.ok(await get(h, `/api/v1/namespaces/${NS}/persistentvolumeclaims/${storage.name}-${NAME}-${node}-0`), `${node}'s pod has its claim`);
    }
    assert.equal((await get(h, svc("pinot-broker"))).spec.clusterIP, "None");
    const createdEvents = async () => (await list(h, `/apis/events.k8s.io/v1/namespaces/${NS}/events`))
      .filter((e: any) => e.reason === "Created" && e.regarding.uid === uid);
    await waitFor(async () => (await createdEvents()).length >= 12, "the Created events");
    assert.equal((await createdEvents()).length, 12, "one Created event per ConfigMap, StatefulSet and Service");
  });

  it("a resync with nothing changed writes nothing and reads nothing from the API (cache only)", async () => {
    const before = await reconciles(h);
    h.cluster.requests.clear();
    const patched = await raw(h.cluster.url, "PATCH", pinotPath, { metadata: { labels: { touched: "yes" } } }, "application/merge-patch+json");
    assert.equal(patched.code, 200);
    await waitFor(async () => (await reconciles(h)) > before, "a reconcile after the label change");
    assert.equal(h.cluster.requests.writes({ resource: [...CHILD_RESOURCES, "pinots/status", "events"] }), 0, JSON.stringify(h.cluster.requests.summary()));
    assert.equal(h.cluster.requests.count({ verb: ["get", "list"], resource: CHILD_RESOURCES }), 0, "children are read from the cache");
  });

  it("a config change of one node rolls only that node's workload", async () => {
    const before = Object.fromEntries(await Promise.all(NODES.map(async (n) => [n, await get(h, sts(n))] as const)));
    const pinot = await getPinot(h, NS, NAME);
    await h.client.patch(ref, nodeConfigPatch(pinot, "broker", "pinot.broker.client.queryPort=8099\npinot.broker.timeoutMs=30000"), "json");
    await waitForPhase(h, NS, NAME, "Ready");
    await waitFor(async () => (await get(h, sts("pinot-broker"))).status.observedGeneration === before["pinot-broker"].metadata.generation + 1, "the broker's new generation observed");
    for (const n of NODES) {
      const now = await get(h, sts(n));
      if (n === "pinot-broker") {
        assert.equal(now.metadata.generation, before[n].metadata.generation + 1, "the broker rolls");
        assert.notDeepEqual(configHashEnv(now), configHashEnv(before[n]), "its config hash changed");
        assert.match((await get(h, cm(n))).data["pinot-broker.conf"], /timeoutMs=30000/);
      } else {
        assert.equal(now.metadata.generation, before[n].metadata.generation, `${n} is not touched`);
        assert.deepEqual(now.spec.template, before[n].spec.template, `${n}'s pod template is byte-identical`);
      }
    }
  });

  it("an upgrade of every node rolls them out in deployment order, each after the previous is ready", async () => {
    const rv = (await get(h, `/apis/apps/v1/namespaces/${NS}/statefulsets`)).metadata.resourceVersion;
    const watch = await openWatch(h.cluster.url, `/apis/apps/v1/namespaces/${NS}/statefulsets?watch=true&resourceVersion=${rv}`);
    try {
      const gens = Object.fromEntries(await Promise.all(NODES.map(async (n) => [n, (await get(h, sts(n))).metadata.generation as number] as const)));
      const pinot = await getPinot(h, NS, NAME);
      await h.client.patch(ref, imagePatch(pinot, "apachepinot/pinot:1.2.0"), "json");
      await waitForPhase(h, NS, NAME, "Ready");

      const name = (o: any) => o.metadata.name.slice(NAME.length + 1);
      const upgraded = (o: any) => o.metadata.generation > gens[name(o)]!;
      const rolledOut = (o: any) => upgraded(o) && o.status?.observedGeneration === o.metadata.generation
        && o.status.readyReplicas === o.spec.replicas && o.status.updatedReplicas === o.spec.replicas && o.status.currentRevision === o.status.updateRevision;
      // Index of the first watch event (one stream: the server's order) where `node` passes `test`.
      const firstIndex = (node: string, test: (o: any) => boolean) => watch.events.findIndex((e) => name(e.object) === node && test(e.object));
      // The watch may trail the status the test read: wait until it has delivered every rollout.
      await waitFor(() => NODES.every((n) => firstIndex(n, rolledOut) >= 0), "the watch to show every node upgraded and rolled out");
      for (let i = 1; i < NODES.length; i++) {
        const previousDone = firstIndex(NODES[i - 1]!, rolledOut);
        const thisStarts = firstIndex(NODES[i]!, upgraded);
        assert.ok(previousDone < thisStarts, `${NODES[i]} is updated (event ${thisStarts}) only after ${NODES[i - 1]} rolled out (event ${previousDone})`);
      }
      for (const n of NODES) assert.equal((await get(h, sts(n))).spec.template.spec.containers[0].image, "apachepinot/pinot:1.2.0");
      await waitFor(async () => (await list(h, `/apis/events.k8s.io/v1/namespaces/${NS}/events`))
        .some((e: any) => e.reason === "Updated" && /StatefulSet/.test(e.note)), "an Updated event for a StatefulSet");
    } finally {
      watch.stop();
    }
  });

  it("removing a node prunes its ConfigMap, StatefulSet and Service and keeps its claims", async () => {
    const pinot = await getPinot(h, NS, NAME);
    const claim = `/api/v1/namespaces/${NS}/persistentvolumeclaims/minion-${NAME}-pinot-minion-0`;
    assert.ok(await get(h, claim));
    await h.client.patch(ref, removeNodePatch(pinot, "pinot-minion"), "json");
    const after = await waitForPhase(h, NS, NAME, "Ready");
    assert.deepEqual(after.status!.nodes!.map((n) => n.name), ["pinot-controller", "pinot-broker", "pinot-server"]);
    await waitFor(async () => !(await get(h, sts("pinot-minion"))) && !(await get(h, cm("pinot-minion"))) && !(await get(h, svc("pinot-minion"))),
      "the minion's ConfigMap, StatefulSet and Service to be deleted");
    await waitFor(async () => (await list(h, `/api/v1/namespaces/${NS}/pods`)).every((p) => !p.metadata!.name!.includes("minion")), "the minion's pods to go");
    assert.ok(await get(h, claim), "the minion's data claim is kept");
    for (const n of NODES.slice(0, 3)) assert.ok(await get(h, sts(n)), `${n} stays`);
    await waitFor(async () => (await list(h, `/apis/events.k8s.io/v1/namespaces/${NS}/events`))
      .some((e: any) => e.reason === "Deleted" && /pinot-minion/.test(e.note)), "a Deleted event naming the pruned objects");
  });
});
