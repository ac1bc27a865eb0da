/**
 * The write path answers as kube-apiserver v1.36.2 does (test/conformance/kube-apiserver-1.36.2.json):
 * JSON Patch failures and bounds, malformed bodies, unsupported patch types, immutable-field
 * messages, deletion preconditions and bodies, size limits and request option validation.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";

const NS = "default";
const cmPath = `/api/v1/namespaces/${NS}/configmaps`;
const blobPath = `/apis/example.com/v1/namespaces/${NS}/blobs`;
const JSON_PATCH = "application/json-patch+json";
const MERGE_PATCH = "application/merge-patch+json";

const blobCrd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "blobs.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "blobs", singular: "blob", kind: "Blob" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } } },
    }],
  },
};

const blob = (name: string, spec: unknown = { size: 1 }) => ({ apiVersion: "example.com/v1", kind: "Blob", metadata: { name }, spec });

describe("LocalCluster's write path answers as kube-apiserver v1.36.2", () => {
  let cluster: LocalCluster;
  before(async () => {
    cluster = await LocalCluster.start();
    assert.equal((await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", blobCrd)).code, 201);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  describe("PATCH", () => {
    it("a failed JSON Patch operation is the generic 422 with empty details", async () => {
      await raw(cluster.url, "POST", cmPath, { metadata: { name: "jp" }, data: { x: "1" } });
      for (const ops of [[{ op: "test", path: "/data/x", value: "2" }], [{ op: "remove", path: "/data/nope" }]]) {
        const r = await raw(cluster.url, "PATCH", `${cmPath}/jp`, ops, JSON_PATCH);
        assert.equal(r.code, 422);
        assert.deepEqual(r.body, {
          kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure",
          message: "the server rejected our request due to an error in our request", reason: "Invalid", details: {}, code: 422,
        });
      }
    });

    it("more than 10,000 operations are 413 before any is applied", async () => {
      await raw(cluster.url, "POST", cmPath, { metadata: { name: "many-ops" }, data: { x: "1" } });
      const ops = Array.from({ length: 10_001 }, () => ({ op: "add", path: "/data/y", value: "2" }));
      const r = await raw(cluster.url, "PATCH", `${cmPath}/many-ops`, ops, JSON_PATCH);
      assert.equal(r.code, 413);
      assert.equal(r.body.reason, "RequestEntityTooLarge");
      assert.equal(r.body.message, "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001");
      const ok = await raw(cluster.url, "PATCH", `${cmPath}/many-ops`, ops.slice(0, 10_000), JSON_PATCH);
      assert.equal(ok.code, 200);
    });

    it("copy operations that would grow the object past 3 MiB fail fast with 422, and the cluster keeps serving", async () => {
      assert.equal((await raw(cluster.url, "POST", blobPath, blob("bomb", { seed: "x".repeat(64) }))).code, 201);
      // 1.4 KB of patch that doubles spec 30 times: 2^30 copies of it unbounded.
      const ops = Array.from({ length: 30 }, (_, i) => ({ op: "copy", from: "/spec", path: `/spec/c${i}` }));
      assert.ok(JSON.stringify(ops).length < 1500);
      const started = performance.now();
      const r = await raw(cluster.url, "PATCH", `${blobPath}/bomb`, ops, JSON_PATCH);
      assert.equal(r.code, 422);
      assert.equal(r.body.message, "the server rejected our request due to an error in our request");
      assert.ok(performance.now() - started < 20_000, "answered without exhausting the heap");
      const got = await raw(cluster.url, "GET", `${blobPath}/bomb`);
      assert.equal(got.code, 200);
      assert.deepEqual(Object.keys(got.body.spec), ["seed"], "nothing of the failed patch is stored");
    });

    it("a body that is not JSON names the kind and quotes the body, with Go's syntax error", async () => {
      const r = await raw(cluster.url, "POST", cmPath, "{not json");
      assert.equal(r.code, 400);
      assert.equal(r.body.message,
        "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character 'n' looking for beginning of object key string ({not json)");
      const list = await raw(cluster.url, "POST", cmPath, "[1]");
      assert.equal(list.body.message,
        'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b315d)');
    });

    it("an unsupported patch type is 415: the router's words for built-ins, the accepted list for custom resources", async () => {
      await raw(cluster.url, "POST", cmPath, { metadata: { name: "typed" } });
      const plain = await raw(cluster.url, "PATCH", `${cmPath}/typed`, { data: {} }, "text/plain");
      assert.equal(plain.code, 415);
      assert.deepEqual(plain.body, {
        kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure",
        message: "415: Unsupported Media Type", reason: "UnsupportedMediaType", details: {}, code: 415,
      });
      const missing = await raw(cluster.url, "PATCH", `${cmPath}/never-created`, { data: {} }, "text/plain");
      assert.equal(missing.code, 415, "before the object is looked up");
      await raw(cluster.url, "POST", blobPath, blob("smp"));
      const smp = await raw(cluster.url, "PATCH", `${blobPath}/smp`, { spec: {} }, "application/strategic-merge-patch+json");
      assert.equal(smp.code, 415);
      assert.equal(smp.body.message,
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
    });
  });

  describe("immutable fields", () => {
    it("a Service's clusterIPs[i] names the new IP", async () => {
      const created = await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/services`, { metadata: { name: "s" }, spec: { ports: [{ port: 80 }] } });
      const svc = created.body;
      svc.spec.clusterIP = "10.0.0.199";
      svc.spec.clusterIPs = ["10.0.0.199"];
      const r = await raw(cluster.url, "PUT", `/api/v1/namespaces/${NS}/services/s`, svc);
      assert.equal(r.code, 422);
      assert.equal(r.body.message, 'Service "s" is invalid: spec.clusterIPs[0]: Invalid value: "10.0.0.199": may not change once set');
    });

    it("a StatefulSet lists revisionHistoryLimit among the mutable fields", async () => {
      const labels = { app: "db" };
      await raw(cluster.url, "POST", `/apis/apps/v1/namespaces/${NS}/statefulsets`, {
        metadata: { name: "db" },
        spec: { serviceName: "db", selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
      });
      const path = `/apis/apps/v1/namespaces/${NS}/statefulsets/db`;
      assert.equal((await raw(cluster.url, "PATCH", path, { spec: { revisionHistoryLimit: 3 } }, MERGE_PATCH)).code, 200);
      const r = await raw(cluster.url, "PATCH", path, { spec: { serviceName: "other" } }, MERGE_PATCH);
      assert.equal(r.body.details.causes[0].message,
        "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
    });

    it("a PersistentVolumeClaim's spec change is shown as a unified diff of the spec", async () => {
      await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
        metadata: { name: "p" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
      });
      const path = `/api/v1/namespaces/${NS}/persistentvolumeclaims/p`;
      const modes = await raw(cluster.url, "PATCH", path, { spec: { accessModes: ["ReadWriteMany"] } }, MERGE_PATCH);
      assert.equal(modes.body.details.causes[0].message, [
        "Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
        "@@ -1,6 +1,6 @@",
        " {",
        '   "AccessModes": [',
        '-    "ReadWriteOnce"',
        '+    "ReadWriteMany"',
        "   ],",
        '   "Selector": null,',
        '   "Resources": {',
        "",
      ].join("\n"));
      const grown = await raw(cluster.url, "PATCH", path, { spec: { resources: { requests: { storage: "2Gi" } } } }, MERGE_PATCH);
      assert.match(grown.body.details.causes[0].message, /\n@@ -6,7 \+6,7 @@\n {3}"Resources": \{\n {5}"Limits": null,\n {5}"Requests": \{\n- {6}"storage": "1Gi"\n\+ {6}"storage": "2Gi"\n/);
    });
  });

  describe("DELETE", () => {
    it("adding a finalizer to an object being deleted gives two causes and one message line", async () => {
      await raw(cluster.url, "POST", cmPath, { metadata: { name: "held", finalizers: ["example.com/hold"] } });
      assert.equal((await raw(cluster.url, "DELETE", `${cmPath}/held`)).code, 200);
      const r = await raw(cluster.url, "PATCH", `${cmPath}/held`,
        { metadata: { finalizers: ["example.com/hold", "example.com/z", "example.com/new", "example.com/z"] } }, MERGE_PATCH);
      assert.equal(r.code, 422);
      const line = 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new", "example.com/z"}';
      assert.equal(r.body.message, `ConfigMap "held" is invalid: metadata.finalizers: ${line}`);
      assert.deepEqual(r.body.details.causes, [
        { reason: "FieldValueForbidden", message: line, field: "metadata.finalizers" },
        { reason: "FieldValueForbidden", message: line, field: "metadata.finalizers" },
      ]);
      assert.equal((await raw(cluster.url, "PATCH", `${cmPath}/held`, { metadata: { finalizers: null } }, MERGE_PATCH)).code, 200);
    });

    it("a precondition that does not hold is a Conflict on the Kind", async () => {
      const created = await raw(cluster.url, "POST", cmPath, { metadata: { name: "pre" } });
      const uid = await raw(cluster.url, "DELETE", `${cmPath}/pre`, { preconditions: { uid: "00000000-0000-0000-0000-000000000000" } });
      assert.equal(uid.code, 409);
      assert.deepEqual(uid.body.details, { name: "pre", kind: "ConfigMap" });
      assert.equal(uid.body.message,
        `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (00000000-0000-0000-0000-000000000000) does not match the UID in record (${created.body.metadata.uid}). The object might have been deleted and then recreated`);
      const rv = await raw(cluster.url, "DELETE", `${cmPath}/pre`, { preconditions: { resourceVersion: "1" } });
      assert.equal(rv.body.message,
        `Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.body.metadata.resourceVersion}). The object might have been modified`);
    });

    it("a removed custom resource is answered with a Status; a Service with itself", async () => {
      const created = await raw(cluster.url, "POST", blobPath, blob("gone"));
      const r = await raw(cluster.url, "DELETE", `${blobPath}/gone`);
      assert.equal(r.code, 200);
      assert.deepEqual(r.body, {
        kind: "Status", apiVersion: "v1", metadata: {}, status: "Success",
        details: { name: "gone", group: "example.com", kind: "blobs", uid: created.body.metadata.uid },
      });
      await raw(cluster.url, "POST", `/api/v1/namespaces/${NS}/services`, { metadata: { name: "svc-gone" }, spec: { ports: [{ port: 80 }] } });
      const svc = await raw(cluster.url, "DELETE", `/api/v1/namespaces/${NS}/services/svc-gone`);
      assert.equal(svc.body.kind, "Service");
    });

    it("deletecollection lists built-in items without apiVersion and kind", async () => {
      await raw(cluster.url, "POST", cmPath, { metadata: { name: "swept", labels: { sweep: "yes" } } });
      const r = await raw(cluster.url, "DELETE", `${cmPath}?labelSelector=sweep`);
      assert.equal(r.body.kind, "ConfigMapList");
      assert.equal(r.body.items.length, 1);
      assert.equal(r.body.items[0].kind, undefined);
      assert.equal(r.body.items[0].apiVersion, undefined);
    });
  });

  describe("limits", () => {
    it("ConfigMap data over 1 MiB is reported on the path `[]`", async () => {
      const r = await raw(cluster.url, "POST", cmPath, { metadata: { name: "big" }, data: { a: "x".repeat(1024 * 1024 + 1) } });
      assert.equal(r.body.message, 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes');
      assert.deepEqual(r.body.details.causes, [{ reason: "FieldValueTooLong", message: "Too long: may not be more than 1048576 bytes", field: "[]" }]);
    });

    it("label values and name parts count bytes", async () => {
      const r = await raw(cluster.url, "POST", cmPath, { metadata: { name: "lv", labels: { k: "é".repeat(32) } } });
      assert.equal(r.code, 422, "32 two-byte characters are 64 bytes");
      assert.equal(r.body.details.causes[0].message, `Invalid value: "${"é".repeat(32)}": must be no more than 63 bytes`);
    });

    it("a 64-character Namespace name also fails as the value of its name label", async () => {
      const name = "n".repeat(64);
      const r = await raw(cluster.url, "POST", "/api/v1/namespaces", { metadata: { name } });
      assert.deepEqual(r.body.details.causes, [
        { reason: "FieldValueInvalid", message: `Invalid value: "${name}": must be no more than 63 characters`, field: "metadata.name" },
        { reason: "FieldValueInvalid", message: `Invalid value: "${name}": must be no more than 63 bytes`, field: "metadata.labels" },
      ]);
    });
  });

  describe("request options", () => {
    it("dryRun other than All is a 422 on CreateOptions", async () => {
      const r = await raw(cluster.url, "POST", `${cmPath}?dryRun=Bogus`, { metadata: { name: "dry" } });
      assert.equal(r.code, 422);
      assert.deepEqual(r.body, {
        kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure",
        message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
        reason: "Invalid",
        details: { group: "meta.k8s.io", kind: "CreateOptions", causes: [{ reason: "FieldValueNotSupported", message: 'Unsupported value: []string{"Bogus"}: supported values: "All"', field: "dryRun" }] },
        code: 422,
      });
      assert.equal((await raw(cluster.url, "GET", `${cmPath}/dry`)).code, 404);
    });

    it("DeleteOptions are validated before the object is looked up, every problem a cause", async () => {
      const r = await raw(cluster.url, "DELETE", `${cmPath}/not-there`, { propagationPolicy: "Sideways", dryRun: ["Bogus"] });
      assert.equal(r.code, 422);
      assert.equal(r.body.message,
        'DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil", dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"]');
      assert.deepEqual(r.body.details.causes.map((c: { field: string }) => c.field), ["propagationPolicy", "dryRun"]);
      const both = await raw(cluster.url, "DELETE", `${cmPath}/not-there`, { propagationPolicy: "Orphan", orphanDependents: true });
      assert.equal(both.body.details.causes[0].message, 'Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
    });

    it("a fieldManager over 128 bytes is refused on every verb; a long User-Agent is cut instead", async () => {
      const long = "m".repeat(129);
      const create = await raw(cluster.url, "POST", `${cmPath}?fieldManager=${long}`, { metadata: { name: "fm" } });
      assert.equal(create.body.message, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
      await raw(cluster.url, "POST", cmPath, { metadata: { name: "fm" } });
      const patch = await raw(cluster.url, "PATCH", `${cmPath}/fm?fieldManager=${long}`, { data: { a: "1" } }, MERGE_PATCH);
      assert.equal(patch.body.details.kind, "PatchOptions");
      const agent = await raw(cluster.url, "POST", cmPath, { metadata: { name: "agent" }, data: { a: "1" } }, "application/json", { "User-Agent": `${"u".repeat(200)}/1.0` });
      assert.equal(agent.code, 201);
      assert.equal(agent.body.metadata.managedFields[0].manager, "u".repeat(128));
    });
  });
});
