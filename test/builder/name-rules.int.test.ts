import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { ApiException, KubernetesObjectApi } from "@kubernetes/client-node";
import type { KubernetesObject } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { Builder, BuilderValidationErrors, ResourceClient } from "../../src/index.ts";
import type { KubeObject } from "../../src/index.ts";
import { raw, waitFor, within } from "../support/wait.ts";

const NS = "names";

/** Which name formats accept a name: [DNS-1035 label, DNS-1123 label, DNS-1123 subdomain, path segment]. */
type Accepts = readonly [dns1035: boolean, label: boolean, subdomain: boolean, pathSegment: boolean];
const FORMAT = { dns1035: 0, label: 1, subdomain: 2, path: 3 } as const;

/** Every name, with the formats that accept it, worked out by hand from apimachinery's rules. */
const NAMES: readonly [string, Accepts][] = [
  ["cache", [true, true, true, true]],
  ["9cache", [false, true, true, true]],
  ["web.v1", [false, false, true, true]],
  ["Cache", [false, false, false, true]],
  ["web_1", [false, false, false, true]],
  ["-cache", [false, false, false, true]],
  ["cache-", [false, false, false, true]],
  ["a.-b", [false, false, false, true]],
  ["a".repeat(63), [true, true, true, true]],
  ["b".repeat(64), [false, false, true, true]],
  ["c".repeat(253), [false, false, true, true]],
  ["d".repeat(254), [false, false, false, true]],
  ["system:node:x", [false, false, false, true]],
  ["a/b", [false, false, false, false]],
  ["100%", [false, false, false, false]],
  ["..", [false, false, false, false]],
];

/** One kind: how the Builder takes it, which format kube-apiserver applies, and a valid body for a name. */
interface KindCase {
  kind: string;
  format: keyof typeof FORMAT;
  add(builder: Builder, obj: KubeObject): Builder;
  body(name: string): KubeObject;
}

const labels = { app: "names" };
const podSpec = { containers: [{ name: "main", image: "busybox" }] };
const KINDS: readonly KindCase[] = [
  { kind: "Service", format: "dns1035", add: (b, o) => b.service(o), body: (name) => ({ apiVersion: "v1", kind: "Service", metadata: { name, namespace: NS }, spec: { selector: labels, ports: [{ port: 80 }] } }) },
  { kind: "Namespace", format: "label", add: (b, o) => b.object(o), body: (name) => ({ apiVersion: "v1", kind: "Namespace", metadata: { name } }) },
  {
    kind: "StatefulSet", format: "label", add: (b, o) => b.statefulSet(o),
    body: (name) => ({ apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name, namespace: NS }, spec: { serviceName: "names", selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } } }),
  },
  { kind: "ConfigMap", format: "subdomain", add: (b, o) => b.configMap(o), body: (name) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: NS }, data: { a: "1" } }) },
  { kind: "Secret", format: "subdomain", add: (b, o) => b.secret(o), body: (name) => ({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: NS }, data: { a: "MQ==" } }) },
  {
    kind: "Deployment", format: "subdomain", add: (b, o) => b.deployment(o),
    body: (name) => ({ apiVersion: "apps/v1", kind: "Deployment", metadata: { name, namespace: NS }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } } }),
  },
  {
    kind: "PersistentVolumeClaim", format: "subdomain", add: (b, o) => b.storage(o),
    body: (name) => ({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name, namespace: NS }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }),
  },
  { kind: "Pod", format: "subdomain", add: (b, o) => b.object(o), body: (name) => ({ apiVersion: "v1", kind: "Pod", metadata: { name, namespace: NS }, spec: podSpec }) },
  { kind: "Widget", format: "subdomain", add: (b, o) => b.object(o), body: (name) => ({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name, namespace: NS }, spec: { size: 1 } }) },
  { kind: "Role", format: "path", add: (b, o) => b.object(o), body: (name) => ({ apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name, namespace: NS }, rules: [] }) },
  { kind: "ClusterRole", format: "path", add: (b, o) => b.object(o), body: (name) => ({ apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name }, rules: [] }) },
];

const widgetCrd = {
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com", scope: "Namespaced", names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } } } }],
  },
};

describe("object names: the Builder and LocalCluster apply kube-apiserver's rule of each kind, and agree", () => {
  let cluster: LocalCluster;
  let client: ResourceClient;
  let objects: KubernetesObjectApi;
  // A cluster-scoped owner, so that Namespaces and ClusterRoles may be its children too.
  const owner: KubeObject = { apiVersion: "example.com/v1", kind: "Fleet", metadata: { name: "names-owner", uid: randomUUID() } };

  before(async () => {
    cluster = await LocalCluster.start();
    client = new ResourceClient({ kubeConfig: cluster.kubeConfig, fieldManager: "names-test" });
    objects = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
    await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name: NS } });
    assert.equal((await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd)).code, 201);
    await waitFor(async () => (await raw(cluster.url, "GET", "/apis/example.com/v1")).code === 200, "Widgets served");
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  /** Whether the Builder refuses the name (a `metadata.name` problem, and no other problem). */
  async function builderRefuses(c: KindCase, name: string): Promise<boolean> {
    try {
      await c.add(new Builder({ client, owner, namespace: NS }), c.body(name)).plan();
      return false;
    } catch (err) {
      assert.ok(err instanceof BuilderValidationErrors, `${c.kind} ${JSON.stringify(name)}: ${err instanceof Error ? err.stack : String(err)}`);
      assert.deepEqual(err.errors.map((e) => e.field), ["metadata.name"], `${c.kind} ${JSON.stringify(name)}: ${err.message}`);
      return true;
    }
  }

  /** The code LocalCluster answers a (dry-run) create through client-node: 201, or 422 on `metadata.name`. */
  async function serverAnswer(c: KindCase, name: string): Promise<number> {
    try {
      await objects.create(c.body(name) as KubernetesObject, undefined, "All");
      return 201;
    } catch (err) {
      assert.ok(err instanceof ApiException, `${c.kind} ${JSON.stringify(name)}: ${String(err)}`);
      const body = typeof err.body === "string" ? JSON.parse(err.body) : err.body;
      assert.equal(err.code, 422, `${c.kind} ${JSON.stringify(name)}: ${JSON.stringify(body)}`);
      assert.equal(body.reason, "Invalid");
      // A Namespace's name is also the value of its kubernetes.io/metadata.name label: past 63 bytes that is a second cause.
      const nameCause = (cause: any) => cause.field === "metadata.name" || (c.kind === "Namespace" && cause.field === "metadata.labels");
      assert.ok(body.details.causes.some((cause: any) => cause.field === "metadata.name") && body.details.causes.every(nameCause), JSON.stringify(body));
      return 422;
    }
  }

  it("every name × kind: refused by the Builder exactly when LocalCluster answers 422, as kube-apiserver's rule says", async () => {
    const disagreements: string[] = [];
    let refusedRows = 0;
    for (const c of KINDS) {
      for (const [name, accepts] of NAMES) {
        const valid = accepts[FORMAT[c.format]];
        const [refused, code] = [await builderRefuses(c, name), await serverAnswer(c, name)];
        const row = `${c.kind} ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}…(${name.length})` : name)}`;
        if (refused === valid) disagreements.push(`${row}: the Builder ${refused ? "refuses" : "accepts"} it, kube-apiserver's rule ${valid ? "accepts" : "refuses"} it`);
        if ((code === 201) !== valid) disagreements.push(`${row}: LocalCluster answers ${code}, kube-apiserver's rule ${valid ? "accepts" : "refuses"} it`);
        if (refused) refusedRows++;
      }
    }
    assert.deepEqual(disagreements, []);
    assert.ok(refusedRows > KINDS.length, "the table exercises refusals of every kind");
  });

  it("a Service named 9cache: the Builder names the field, the rule and a fix; LocalCluster answers kube-apiserver's 422", async () => {
    const service = KINDS.find((c) => c.kind === "Service")!;
    const before = cluster.requests.count();
    await assert.rejects(new Builder({ client, owner, namespace: NS }).service(service.body("9cache")).reconcile(), (err: unknown) => {
      assert.ok(err instanceof BuilderValidationErrors);
      assert.equal(err.errors.length, 1);
      assert.equal(err.errors[0]!.field, "metadata.name");
      assert.match(err.message, /^Service\/9cache: metadata\.name: "9cache" must be a DNS-1035 label \(start with a lower-case letter.*at most 63 characters\) because kube-apiserver requires it for Services/);
      assert.match(err.message, /Fix: rename it, e\.g\. "svc-9cache"$/);
      return true;
    });
    assert.equal(cluster.requests.count(), before, "refused before any request");

    const r = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/services`, service.body("9cache"));
    assert.equal(r.code, 422);
    assert.equal(r.body.reason, "Invalid");
    assert.equal(r.body.message,
      'Service "9cache" is invalid: metadata.name: Invalid value: "9cache": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', ' +
      "start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
    assert.deepEqual(r.body.details.causes, [{ reason: "FieldValueInvalid", field: "metadata.name", message: r.body.message.slice(r.body.message.indexOf("Invalid value")) }]);
  });

  it("a StatefulSet named like a subdomain is refused on create (its Pods' hostnames), with kube-apiserver's label message", async () => {
    const sts = KINDS.find((c) => c.kind === "StatefulSet")!;
    const r = await raw(cluster.url, "POST", `/apis/apps/v1/namespaces/${NS}/statefulsets`, sts.body("web.v1"));
    assert.equal(r.code, 422);
    assert.equal(r.body.message, 'StatefulSet.apps "web.v1" is invalid: metadata.name: Invalid value: "web.v1": must not contain dots');
  });
});
