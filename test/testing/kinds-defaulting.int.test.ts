/**
 * Built-in defaults through LocalCluster's write path, over raw HTTP: the creator's
 * managedFields list the decode-time defaults but none of the create-time ones (admission,
 * strategy, allocators), as kube-apiserver v1.36.2's do; node ports are unique in the cluster.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

const NS = "default";

describe("LocalCluster defaults built-in objects as kube-apiserver does", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  it("records a Pod's decode-time defaults in its creator's managedFields, not the admission plugins' ones", async () => {
    const r = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/pods?fieldManager=maker`, {
      apiVersion: "v1", kind: "Pod", metadata: { name: "mf" }, spec: { containers: [{ name: "c", image: "busybox:1.36" }] },
    });
    assert.equal(r.code, 201, r.text);
    const spec = r.body.spec;
    assert.equal(spec.serviceAccountName, "default");
    assert.equal(spec.serviceAccount, "default");
    assert.match(spec.volumes[0].name, /^kube-api-access-[a-z0-9]{5}$/);
    assert.deepEqual(spec.containers[0].volumeMounts, [{ name: spec.volumes[0].name, readOnly: true, mountPath: "/var/run/secrets/kubernetes.io/serviceaccount" }]);
    assert.equal(spec.priority, 0);
    assert.equal(r.body.metadata.generation, 1);
    const entry = r.body.metadata.managedFields.find((e: { manager: string }) => e.manager === "maker");
    const fields = Object.keys(entry.fieldsV1["f:spec"]);
    for (const f of ["f:dnsPolicy", "f:enableServiceLinks", "f:terminationGracePeriodSeconds", "f:schedulerName"]) assert.ok(fields.includes(f), f);
    for (const f of ["f:serviceAccountName", "f:serviceAccount", "f:tolerations", "f:volumes", "f:priority", "f:preemptionPolicy"]) assert.ok(!fields.includes(f), f);
  });

  it("keeps a Deployment's decode-time defaults through a PUT that leaves them out", async () => {
    const body = {
      apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "keep" },
      spec: { selector: { matchLabels: { app: "k" } }, template: { metadata: { labels: { app: "k" } }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
    };
    const created = await raw(cluster.url, "POST", `/apis/apps/v1/namespaces/${NS}/deployments`, body);
    assert.equal(created.code, 201, created.text);
    assert.equal(created.body.spec.progressDeadlineSeconds, 600);
    assert.equal(created.body.spec.template.spec.containers[0].imagePullPolicy, "Always");
    assert.deepEqual(created.body.status, {});
    const put = await raw(cluster.url, "PUT", `/apis/apps/v1/namespaces/${NS}/deployments/keep`, body);
    assert.equal(put.code, 200, put.text);
    assert.equal(put.body.spec.revisionHistoryLimit, 10);
    assert.equal(put.body.spec.template.spec.terminationGracePeriodSeconds, 30);
  });

  it("gives NodePort Services distinct node ports and refuses one already allocated", async () => {
    const svc = (name: string, nodePort?: number) => ({
      apiVersion: "v1", kind: "Service", metadata: { name },
      spec: { type: "NodePort", selector: { app: "web" }, ports: [{ port: 80, ...(nodePort ? { nodePort } : {}) }] },
    });
    const a = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/services`, svc("np-a"));
    const b = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/services`, svc("np-b"));
    assert.equal(a.code, 201, a.text);
    assert.equal(b.code, 201, b.text);
    const pa = a.body.spec.ports[0].nodePort;
    const pb = b.body.spec.ports[0].nodePort;
    assert.ok(pa >= 30000 && pa <= 32767 && pb >= 30000 && pb <= 32767 && pa !== pb, `${pa} ${pb}`);
    assert.deepEqual(a.body.status, { loadBalancer: {} });
    const taken = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/services`, svc("np-c", pa));
    assert.equal(taken.code, 422, taken.text);
    assert.equal(taken.body.message, `Service "np-c" is invalid: spec.ports[0].nodePort: Invalid value: ${pa}: provided port is already allocated`);
  });
});
