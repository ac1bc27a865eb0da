/**
 * Protobuf request bodies against LocalCluster: the real kubectl's generator commands (which
 * POST `application/vnd.kubernetes.protobuf`), read back with client-node; bodies encoded here
 * over raw HTTP; broken bodies answer 400 and custom resources 415, as kube-apiserver does.
 * kubectl tests are skipped (with the reason printed) only when there is no kubectl.
 */
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { AppsV1Api, CoreV1Api } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";
import { encodeBody, envelope } from "../support/protobuf-body.ts";
import { KUBECTL } from "../support/kubectl.ts";

const execFileP = promisify(execFile);
const PROTOBUF = "application/vnd.kubernetes.protobuf";
/** client-node's model objects as plain JSON, for deep comparisons. */
const plain = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));


const WIDGET_CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
  },
};

describe("protobuf request bodies", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;

  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
  });
  after(async () => {
    if (cluster) await within(cluster.stop(), "cluster.stop()");
  });

  describe("from kubectl's create generators", {
    skip: KUBECTL ? false : "no kubectl binary on PATH; install kubectl (or set KUBECTL) to run these tests",
    timeout: 120_000,
  }, () => {
    let cacheDir: string;
    beforeEach(async () => {
      cacheDir = await mkdtemp(path.join(tmpdir(), "kubectl-cache-"));
    });
    afterEach(async () => {
      await rm(cacheDir, { recursive: true, force: true });
    });

    /** Runs kubectl with the cluster's kubeconfig; resolves with stdout, rejects with stderr. */
    async function kubectl(...args: string[]): Promise<string> {
      try {
        const { stdout } = await execFileP(KUBECTL!, ["--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir, ...args], {
          timeout: 30_000, killSignal: "SIGKILL", env: { ...process.env, KUBECONFIG: cluster.kubeconfigPath },
        });
        return stdout;
      } catch (e) {
        const err = e as Error & { stdout?: string; stderr?: string };
        throw new Error(`kubectl ${args.join(" ")} failed: ${err.message}\nstdout: ${err.stdout ?? ""}\nstderr: ${err.stderr ?? ""}`);
      }
    }

    it("sends protobuf for create namespace (checked with -v=8), and the namespace exists", async () => {
      const { stderr } = await execFileP(KUBECTL!, [
        "--kubeconfig", cluster.kubeconfigPath, "--cache-dir", cacheDir, "-v=8", "create", "namespace", "proto-ns",
      ], { timeout: 30_000, killSignal: "SIGKILL" });
      assert.match(stderr, /Content-Type: application\/vnd\.kubernetes\.protobuf/, "this kubectl POSTs protobuf, so the test means something");
      assert.match(stderr, /Accept: application\/vnd\.kubernetes\.protobuf,application\/json/);
      const ns = await core.readNamespace({ name: "proto-ns" });
      assert.equal(ns.metadata?.name, "proto-ns");
      assert.equal(ns.status?.phase, "Active");
      assert.equal(ns.metadata?.creationTimestamp instanceof Date, true, "the server set creationTimestamp, not the empty one kubectl sent");
    });

    it("creates a ConfigMap from a literal and from a binary file (binaryData)", async () => {
      assert.match(await kubectl("create", "configmap", "proto-cm", "--from-literal=a=b", "-n", "default"), /configmap\/proto-cm created/);
      const cm = await core.readNamespacedConfigMap({ name: "proto-cm", namespace: "default" });
      assert.deepEqual(cm.data, { a: "b" });
      assert.equal(cm.binaryData, undefined);

      const dir = await mkdtemp(path.join(tmpdir(), "proto-files-"));
      try {
        await writeFile(path.join(dir, "blob"), Uint8Array.from([0, 1, 0xff, 0xfe]));
        await writeFile(path.join(dir, "note.txt"), "hello\n");
        await kubectl("create", "configmap", "proto-bin", `--from-file=${path.join(dir, "blob")}`, `--from-file=${path.join(dir, "note.txt")}`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      const bin = await core.readNamespacedConfigMap({ name: "proto-bin", namespace: "default" });
      assert.deepEqual(bin.binaryData, { blob: Buffer.from([0, 1, 0xff, 0xfe]).toString("base64") });
      assert.deepEqual(bin.data, { "note.txt": "hello\n" });
    });

    it("creates a generic Secret whose data is base64", async () => {
      await kubectl("create", "secret", "generic", "proto-secret", "--from-literal=a=b", "--from-literal=empty=");
      const secret = await core.readNamespacedSecret({ name: "proto-secret", namespace: "default" });
      assert.deepEqual(secret.data, { a: Buffer.from("b").toString("base64"), empty: "" });
      assert.equal(secret.type, "Opaque");
    });

    it("creates a Deployment with the image, selector, labels and replicas; --replicas=0 stays 0", async () => {
      await kubectl("create", "deployment", "proto-web", "--image=nginx:1.27", "--port=80");
      const d = await apps.readNamespacedDeployment({ name: "proto-web", namespace: "default" });
      assert.equal(d.spec?.replicas, 1);
      assert.deepEqual(d.spec?.selector.matchLabels, { app: "proto-web" });
      assert.deepEqual(d.metadata?.labels, { app: "proto-web" });
      assert.deepEqual(d.spec?.template.metadata?.labels, { app: "proto-web" });
      const [container] = d.spec?.template.spec?.containers ?? [];
      assert.equal(container?.image, "nginx:1.27");
      assert.equal(container?.name, "nginx");
      assert.deepEqual(plain(container?.ports), [{ containerPort: 80, protocol: "TCP" }]);
      assert.equal(container?.stdin, undefined, "zero-valued non-pointer fields are left out, as omitempty does");

      await kubectl("create", "deployment", "proto-none", "--image=nginx", "--replicas=0");
      assert.equal((await apps.readNamespacedDeployment({ name: "proto-none", namespace: "default" })).spec?.replicas, 0);
    });

    it("creates a ClusterIP Service whose targetPort is an int-or-string", async () => {
      await kubectl("create", "service", "clusterip", "proto-svc", "--tcp=80:8080", "--tcp=443:https");
      const svc = await core.readNamespacedService({ name: "proto-svc", namespace: "default" });
      assert.equal(svc.spec?.type, "ClusterIP");
      assert.deepEqual(svc.spec?.selector, { app: "proto-svc" });
      assert.deepEqual(svc.spec?.ports?.map((p) => [p.name, p.port, p.targetPort, p.protocol]), [
        ["80-8080", 80, 8080, "TCP"],
        ["443-https", 443, "https", "TCP"],
      ]);
    });

    it("creates a Pod with kubectl run and a ServiceAccount", async () => {
      await kubectl("run", "proto-pod", "--image=busybox", "--restart=Never", "--env=A=1", "--labels=x=y", "--", "sleep", "10");
      const pod = await core.readNamespacedPod({ name: "proto-pod", namespace: "default" });
      assert.deepEqual(pod.metadata?.labels, { x: "y" });
      assert.deepEqual(pod.spec?.containers[0]?.args, ["sleep", "10"]);
      assert.deepEqual(plain(pod.spec?.containers[0]?.env), [{ name: "A", value: "1" }]);
      assert.equal(pod.spec?.restartPolicy, "Never");
      await kubectl("create", "serviceaccount", "proto-sa");
      assert.equal((await core.readNamespacedServiceAccount({ name: "proto-sa", namespace: "default" })).metadata?.name, "proto-sa");
    });
  });

  describe("over raw HTTP", () => {
    const POD = { apiVersion: "v1", kind: "Pod" };

    it("creates a Pod from a body encoded with the library and answers JSON", async () => {
      const body = encodeBody("k8s.io.api.core.v1.Pod", {
        metadata: { name: "raw-pod", labels: { app: "raw" } },
        spec: {
          containers: [{
            name: "web", image: "nginx",
            resources: { requests: { cpu: { string: "250m" }, memory: { string: "64Mi" } } },
            readinessProbe: { handler: { httpGet: { path: "/", port: { type: 1, strVal: "http" } } } },
          }],
        },
      }, POD);
      const res = await raw(cluster.url, "POST", "/api/v1/namespaces/default/pods", body, PROTOBUF, { Accept: `${PROTOBUF},application/json` });
      assert.equal(res.code, 201, res.text);
      assert.equal(res.headers.get("content-type"), "application/json");
      assert.equal(res.body.metadata.namespace, "default", "the URL's namespace fills the empty one");
      const pod = await core.readNamespacedPod({ name: "raw-pod", namespace: "default" });
      assert.deepEqual(pod.spec?.containers[0]?.resources?.requests, { cpu: "250m", memory: "64Mi" });
      assert.deepEqual(plain(pod.spec?.containers[0]?.readinessProbe?.httpGet), { path: "/", port: "http", scheme: "HTTP" });
    });

    it("replaces an object with a protobuf PUT and rejects a kind that does not match the URL", async () => {
      const cm = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "raw-put" }, data: { a: "1" } } });
      const body = encodeBody("k8s.io.api.core.v1.ConfigMap", {
        metadata: { name: "raw-put", namespace: "default", resourceVersion: cm.metadata?.resourceVersion }, data: { a: "2" },
      }, { apiVersion: "v1", kind: "ConfigMap" });
      const put = await raw(cluster.url, "PUT", "/api/v1/namespaces/default/configmaps/raw-put", body, PROTOBUF);
      assert.equal(put.code, 200, put.text);
      assert.deepEqual((await core.readNamespacedConfigMap({ name: "raw-put", namespace: "default" })).data, { a: "2" });

      const secret = encodeBody("k8s.io.api.core.v1.Secret", { metadata: { name: "x" } }, { apiVersion: "v1", kind: "Secret" });
      const wrong = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", secret, PROTOBUF);
      assert.equal(wrong.code, 400);
      assert.match(wrong.body.message, /the kind in the data \(Secret\) does not match the expected kind \(ConfigMap\)/);
    });

    it("answers 400 BadRequest, never 500, to malformed protobuf", async () => {
      const good = encodeBody("k8s.io.api.core.v1.Pod", { metadata: { name: "broken", labels: { a: "b" } } }, POD);
      const cases: [string, Uint8Array, RegExp][] = [
        ["JSON sent as protobuf", Buffer.from('{"metadata":{"name":"x"}}'), /does not appear to be a protobuf message, expected prefix/],
        ["an empty body", new Uint8Array(), /does not appear to be a protobuf message/],
        ["a truncated body", good.subarray(0, good.length - 10), /unable to decode the protobuf body/],
        ["garbage after the prefix", Buffer.concat([good.subarray(0, 4), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])]), /unable to decode the protobuf body/],
      ];
      for (const [what, body, message] of cases) {
        const res = await raw(cluster.url, "POST", "/api/v1/namespaces/default/pods", body, PROTOBUF);
        assert.equal(res.code, 400, `${what}: ${res.text}`);
        assert.equal(res.body.reason, "BadRequest", what);
        assert.match(res.body.message, message, what);
      }
    });

    it("answers 400 'no kind registered' to an envelope kind named after an Object.prototype member", async () => {
      for (const kind of ["constructor", "hasOwnProperty", "__proto__", "toString", "valueOf", "isPrototypeOf"]) {
        const body = envelope({ typeMeta: { apiVersion: "v1", kind }, raw: new Uint8Array() });
        const create = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", body, PROTOBUF);
        assert.equal(create.code, 400, `create with kind ${kind}: ${create.text}`);
        assert.equal(create.body.message, `no kind "${kind}" is registered for version "v1"`);
        const del = await raw(cluster.url, "DELETE", "/api/v1/namespaces/default/configmaps/raw-put", body, PROTOBUF);
        assert.equal(del.code, 400, `DeleteOptions with kind ${kind}: ${del.text}`);
        assert.equal(del.body.message, `no kind "${kind}" is registered for version "v1"`);
      }
      const group = envelope({ typeMeta: { apiVersion: "constructor/v1", kind: "ConfigMap" }, raw: new Uint8Array() });
      const res = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", group, PROTOBUF);
      assert.equal(res.code, 400, res.text);
      assert.equal(res.body.message, `no kind "ConfigMap" is registered for version "constructor/v1"`);
    });

    it("answers 400 to managedFields or RawExtension JSON nested past the JSON body limit, at any depth", async () => {
      const deep = (n: number) => '{"f:a":'.repeat(n) + "{}" + "}".repeat(n);
      const withFields = (name: string, json: string) => encodeBody("k8s.io.api.core.v1.ConfigMap", {
        metadata: { name, managedFields: [{ manager: "m", operation: "Update", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: { Raw: Buffer.from(json) } }] },
      }, { apiVersion: "v1", kind: "ConfigMap" });
      const shallow = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", withFields("fields-shallow", deep(5)), PROTOBUF);
      assert.equal(shallow.code, 201, shallow.text);
      // 998 levels inside the FieldsV1 are fine alone but not 4 levels down (metadata.managedFields[0].fieldsV1).
      for (const n of [998, 1_500, 5_000, 100_000]) {
        const res = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", withFields(`fields-${n}`, deep(n)), PROTOBUF);
        assert.equal(res.code, 400, `FieldsV1 nested ${n} deep: ${res.text.slice(0, 300)}`);
        assert.match(res.body.message, /exceeded max depth/);
      }
      const list = encodeBody("k8s.io.api.core.v1.List", { items: [{ raw: Buffer.from(deep(3_000)) }] }, { apiVersion: "v1", kind: "List" });
      const rawExt = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", list, PROTOBUF);
      assert.equal(rawExt.code, 400, rawExt.text.slice(0, 300));
      assert.match(rawExt.body.message, /RawExtension does not hold JSON: exceeded max depth/);
    });

    it("answers 415 to a protobuf body for a custom resource, as kube-apiserver does", async () => {
      const crd = await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", WIDGET_CRD);
      assert.equal(crd.code, 201, crd.text);
      const body = encodeBody("k8s.io.api.core.v1.ConfigMap", { metadata: { name: "w" } }, { apiVersion: "example.com/v1", kind: "Widget" });
      const res = await raw(cluster.url, "POST", "/apis/example.com/v1/namespaces/default/widgets", body, PROTOBUF);
      assert.equal(res.code, 415, res.text);
      assert.equal(res.body.reason, "UnsupportedMediaType");
      assert.match(res.body.message, /accepted media types include: application\/json, application\/yaml$/);
    });

    it("lists protobuf among the accepted types when a built-in kind gets an unknown media type", async () => {
      const res = await raw(cluster.url, "POST", "/api/v1/namespaces/default/configmaps", "x", "text/plain");
      assert.equal(res.code, 415);
      assert.match(res.body.message, /application\/json, application\/yaml, application\/vnd\.kubernetes\.protobuf/);
    });
  });
});
