import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, EventRecorder, ResourceClient } from "../../src/index.ts";
import { httpEventSink } from "../../src/entries/client.ts";
import type { KubeObject } from "../../src/index.ts";
import { createDataApp, installDataApp } from "../support/owner.ts";
import { raw, waitFor, within } from "../support/wait.ts";
import { config, secret, server, web } from "./fixtures.ts";

const NS = "rollout";

describe("Builder immutable fields, ordered rollout and events (simulated workloads)", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let recorder: EventRecorder;
  let owner: any;
  before(async () => {
    cluster = await LocalCluster.start({ simulate: { readyDelayMs: 5 } });
    await installDataApp(cluster.url);
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "dataapp-operator" });
    recorder = new EventRecorder({ sink: httpEventSink(cluster.kubeConfig), controller: "example.com/dataapp-operator" });
    owner = await createDataApp(cluster.url, NS, "ordered");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  const biggerDisk = (): KubeObject => {
    const s = server();
    (s.spec as any).volumeClaimTemplates[0].spec.resources.requests.storage = "2Gi";
    return s;
  };

  it("gates workloads in order and says what it waits on", async () => {
    const build = () => new Builder({ client, owner, recorder, orderedRollout: true })
      .configMap(config()).secret(secret()).configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web-config" }, data: { theme: "dark" } })
      .statefulSet(server()).deployment(web());
    const first = await build().reconcile();
    const byName = Object.fromEntries(first.objects.map((o) => [`${o.kind}/${o.name}`, o]));
    assert.equal(byName["StatefulSet/server"]!.action, "created");
    assert.equal(byName["Deployment/web"]!.action, "waiting");
    assert.match(first.waitingOn ?? "", /StatefulSet\/rollout\/server/);
    assert.equal((await raw(cluster.url, "GET", `/apis/apps/v1/namespaces/${NS}/deployments/web`)).code, 404, "web not created yet");
    const settled = await waitFor(async () => {
      const r = await build().reconcile();
      return r.objects.every((o) => o.action !== "waiting") && r.waitingOn === undefined ? r : undefined;
    }, "the rollout to pass the gate", 15_000);
    assert.ok(settled.ok);
    assert.equal((await raw(cluster.url, "GET", `/apis/apps/v1/namespaces/${NS}/deployments/web`)).code, 200);
  });

  it("reports an immutable change per object instead of failing the pass", async () => {
    const result = await new Builder({ client, owner, prune: false }).configMap(config()).secret(secret()).statefulSet(biggerDisk()).reconcile();
    const sts = result.objects.find((o) => o.kind === "StatefulSet")!;
    assert.equal(sts.action, "failed");
    assert.match(sts.error!.message, /spec\.volumeClaimTemplates cannot be changed/);
    assert.match(sts.error!.message, /recreateOnImmutableChange/);
    assert.equal(result.objects.find((o) => o.kind === "ConfigMap")!.action, "unchanged");
  });

  it("re-creates the object when it opts in, keeping its pods (orphan)", async () => {
    const oldUid = (await raw(cluster.url, "GET", `/apis/apps/v1/namespaces/${NS}/statefulsets/server`)).body.metadata.uid;
    const podUid = (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/pods/server-0`)).body.metadata.uid;
    assert.ok(podUid, "server-0 runs before the re-create");
    const result = await waitFor(async () => {
      const r = await new Builder({ client, owner, prune: false }).configMap(config()).secret(secret())
        .statefulSet(biggerDisk(), { recreateOnImmutableChange: true }).reconcile();
      const sts = r.objects.find((o) => o.kind === "StatefulSet")!;
      return sts.action === "updated" || sts.action === "unchanged" ? r : undefined;
    }, "re-created StatefulSet", 10_000);
    assert.ok(result.ok);
    const now = (await raw(cluster.url, "GET", `/apis/apps/v1/namespaces/${NS}/statefulsets/server`)).body;
    assert.notEqual(now.metadata.uid, oldUid);
    assert.equal(now.spec.volumeClaimTemplates[0].spec.resources.requests.storage, "2Gi");
    const pod = (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/pods/server-0`)).body;
    assert.equal(pod.metadata.uid, podUid, "the pod kept running through the re-create (orphan propagation)");
  });

  it("records events on the owner with CamelCase reasons and human notes", async () => {
    const events = await waitFor(async () => {
      const list = (await raw(cluster.url, "GET", `/apis/events.k8s.io/v1/namespaces/${NS}/events`)).body.items as any[];
      return list.length >= 3 ? list : undefined;
    }, "events");
    const created = events.find((e) => e.reason === "Created" && /StatefulSet/.test(e.note));
    assert.ok(created, JSON.stringify(events.map((e) => [e.reason, e.note])));
    assert.equal(created.regarding.uid, owner.metadata.uid);
    assert.equal(created.type, "Normal");
    const core = (await raw(cluster.url, "GET", `/api/v1/namespaces/${NS}/events`)).body.items as any[];
    assert.ok(core.some((e) => e.reason === "Created" && /^Created StatefulSet/.test(e.message)), "reason and message are not swapped");
  });
});
