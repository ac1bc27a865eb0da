/**
 * The PodSet conversion webhook (examples/replicaset/conversion.ts): lossless both ways, and
 * served by the operator's Manager to a LocalCluster that converts every v1alpha1 read and write
 * through it.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Manager, ResourceClient } from "../../../src/index.ts";
import { silentLogger } from "../../../src/entries/client.ts";
import { checkRoundTrip } from "../../../src/entries/webhook.ts";
import type { Kind, KubeObject } from "../../../src/index.ts";
import { LocalCluster } from "../../../src/testing/index.ts";
import { installCrds } from "../../../examples/example.ts";
import { operator, PodSet } from "../../../examples/replicaset/operator.ts";
import { podSetConversion, registerPodSetConversion } from "../../../examples/replicaset/conversion.ts";
import { waitFor, within } from "../../support/wait.ts";

const template = { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "nginx", image: "nginx:1.27" }] } };
const PodSetV1alpha1: Kind<KubeObject> = { apiVersion: "replicaset.example.com/v1alpha1", kind: "PodSet" };

describe("the PodSet conversion (v1alpha1 spec.size ⇄ v1 spec.replicas)", () => {
  it("round-trips both versions unchanged, and renames the field", () => {
    const v1alpha1: KubeObject = { apiVersion: "replicaset.example.com/v1alpha1", kind: "PodSet", metadata: { name: "web", namespace: "default" }, spec: { size: 2, template } };
    const v1: KubeObject = { apiVersion: "replicaset.example.com/v1", kind: "PodSet", metadata: { name: "web", namespace: "default" }, spec: { replicas: 3, template } };
    checkRoundTrip(podSetConversion, v1alpha1);
    checkRoundTrip(podSetConversion, v1);
    assert.deepEqual(podSetConversion.spokes["v1alpha1"]!.toHub(v1alpha1)["spec"], { replicas: 2, template });
  });

  it("a conversion that drops the field fails checkRoundTrip, naming the field", () => {
    const lossy = { ...podSetConversion, spokes: { v1alpha1: { ...podSetConversion.spokes["v1alpha1"]!, fromHub: (o: KubeObject) => o } } };
    const v1alpha1: KubeObject = { apiVersion: "replicaset.example.com/v1alpha1", kind: "PodSet", metadata: { name: "web" }, spec: { size: 2, template } };
    assert.throws(() => checkRoundTrip(lossy, v1alpha1), /spec\.size/);
  });

  describe("served by the Manager to LocalCluster", () => {
    let cluster: LocalCluster;
    let client: ResourceClient;
    let mgr: Manager;
    before(async () => {
      cluster = await LocalCluster.start({ simulate: { readyDelayMs: 10 } });
      client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "conversion-test" });
      await installCrds(client, operator.crds);
      mgr = new Manager({ kubeConfig: cluster.kubeConfig, healthPort: false, logger: silentLogger, webhook: { port: 0 } });
      operator.register(mgr);
      registerPodSetConversion(mgr);
      await within(mgr.start(), "the manager to start");
      await cluster.registerWebhooks(mgr);
    });
    after(async () => {
      await within(mgr.stop(), "mgr.stop()");
      await within(cluster.stop(), "cluster.stop()");
    });

    it("a PodSet written as v1alpha1 is stored as v1, read back as either, and reconciled", async () => {
      const created = await client.create({ ...PodSetV1alpha1, metadata: { name: "old-client", namespace: "default" }, spec: { size: 2, template } });
      assert.equal(created.apiVersion, "replicaset.example.com/v1alpha1");
      assert.equal((created["spec"] as { size?: number }).size, 2);
      const stored = await client.get({ ...PodSet, name: "old-client", namespace: "default" });
      assert.equal(stored.spec.replicas, 2);
      assert.equal((stored.spec as unknown as Record<string, unknown>)["size"], undefined);
      const reconciled = await waitFor(async () => {
        const s = await client.get({ ...PodSet, name: "old-client", namespace: "default" });
        return s.status?.readyReplicas === 2 ? s : undefined;
      }, "the operator to run 2 Pods for a PodSet created as v1alpha1");
      assert.equal(reconciled.status?.message, "2/2 ready");
      const listed = await client.list(PodSetV1alpha1, { namespace: "default" });
      assert.deepEqual(listed.items.map((p) => (p["spec"] as { size?: number }).size), [2]);
    });
  });
});
