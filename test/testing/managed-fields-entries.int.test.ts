/**
 * Whole managedFields entries over HTTP, as kube-apiserver v1.36.2 records them (expected values
 * from the recorded real answers in test/conformance/kube-apiserver-1.36.2.json).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

type Entry = Record<string, unknown>;

/** The entries with their times checked (RFC 3339, whole seconds) and left out. */
function entriesOf(body: any): Entry[] {
  const entries = (body?.metadata?.managedFields ?? []) as Entry[];
  return entries.map(({ time, ...rest }) => {
    assert.match(String(time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    return rest;
  });
}

const update = (manager: string, apiVersion: string, fieldsV1: unknown): Entry => ({ apiVersion, fieldsType: "FieldsV1", fieldsV1, manager, operation: "Update" });

const deployment = (name: string, ports: unknown[]) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name, labels: { app: name } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx:1.25", ports }] } },
  },
});

describe("LocalCluster managedFields entries", () => {
  let cluster: LocalCluster;
  const cms = "/api/v1/namespaces/default/configmaps";
  const deploys = "/apis/apps/v1/namespaces/default/deployments";
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("a ConfigMap create records the data and labels maps it created ('.')", async () => {
    const r = await raw(cluster.url, "POST", `${cms}?fieldManager=creator`, {
      apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm1", labels: { env: "a", tier: "b" } }, data: { k: "v" },
    });
    assert.equal(r.code, 201);
    assert.deepEqual(entriesOf(r.body), [
      update("creator", "v1", { "f:data": { ".": {}, "f:k": {} }, "f:metadata": { "f:labels": { ".": {}, "f:env": {}, "f:tier": {} } } }),
    ]);
  });

  it("a Deployment create records what it and defaulting set, no '.' for spec, template or strategy", async () => {
    const r = await raw(cluster.url, "POST", `${deploys}?fieldManager=creator`, deployment("web", [{ containerPort: 80 }]));
    assert.equal(r.code, 201);
    assert.deepEqual(entriesOf(r.body), [
      update("creator", "apps/v1", {
        "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
        "f:spec": {
          "f:progressDeadlineSeconds": {},
          "f:replicas": {},
          "f:revisionHistoryLimit": {},
          "f:selector": {},
          "f:strategy": { "f:rollingUpdate": { ".": {}, "f:maxSurge": {}, "f:maxUnavailable": {} }, "f:type": {} },
          "f:template": {
            "f:metadata": { "f:labels": { ".": {}, "f:app": {} } },
            "f:spec": {
              "f:containers": {
                'k:{"name":"c"}': {
                  ".": {},
                  "f:image": {},
                  "f:imagePullPolicy": {},
                  "f:name": {},
                  "f:ports": { ".": {}, 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {}, "f:protocol": {} } },
                  "f:resources": {},
                  "f:terminationMessagePath": {},
                  "f:terminationMessagePolicy": {},
                },
              },
              "f:dnsPolicy": {},
              "f:restartPolicy": {},
              "f:schedulerName": {},
              "f:securityContext": {},
              "f:terminationGracePeriodSeconds": {},
            },
          },
        },
      }),
    ]);
  });

  it("a label patch by another manager: the labels map it created is its own ('.'), the creator keeps the rest", async () => {
    const created = await raw(cluster.url, "POST", `${cms}?fieldManager=creator`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm2" }, data: { k: "v" } });
    assert.equal(created.code, 201);
    const r = await raw(cluster.url, "PATCH", `${cms}/cm2?fieldManager=labeller`, { metadata: { labels: { team: "x" } } }, "application/merge-patch+json");
    assert.equal(r.code, 200);
    assert.deepEqual(entriesOf(r.body), [
      update("creator", "v1", { "f:data": { ".": {}, "f:k": {} } }),
      update("labeller", "v1", { "f:metadata": { "f:labels": { ".": {}, "f:team": {} } } }),
    ]);
    const second = await raw(cluster.url, "PATCH", `${cms}/cm2?fieldManager=other`, { metadata: { labels: { more: "y" } } }, "application/merge-patch+json");
    assert.deepEqual(entriesOf(second.body)[2], update("other", "v1", { "f:metadata": { "f:labels": { "f:more": {} } } }));
  });

  it(
    "an apply of a port without protocol names the TCP port but does not own f:protocol; a LabelSelector is one leaf",
    async () => {
      const r = await raw(cluster.url, "PATCH", `${deploys}/applied?fieldManager=m1`, deployment("applied", [{ containerPort: 80 }]), "application/apply-patch+yaml");
      assert.equal(r.code, 201);
      assert.deepEqual(r.body.spec.template.spec.containers[0].ports, [{ containerPort: 80, protocol: "TCP" }]);
      assert.deepEqual(entriesOf(r.body), [
        {
          apiVersion: "apps/v1",
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": { "f:labels": { "f:app": {} } },
            "f:spec": {
              "f:replicas": {},
              "f:selector": {},
              "f:template": {
                "f:metadata": { "f:labels": { "f:app": {} } },
                "f:spec": {
                  "f:containers": {
                    'k:{"name":"c"}': { ".": {}, "f:image": {}, "f:name": {}, "f:ports": { 'k:{"containerPort":80,"protocol":"TCP"}': { ".": {}, "f:containerPort": {} } } },
                  },
                },
              },
            },
          },
          manager: "m1",
          operation: "Apply",
        },
      ]);
    },
  );
});
