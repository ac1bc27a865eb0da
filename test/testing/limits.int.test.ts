/**
 * The limits kube-apiserver enforces, through real clients: label and annotation rules, the
 * 1 MiB ConfigMap/Secret data limit and config keys, per-kind name rules, the body nesting
 * limit, and request paths that are malformed or try to step out of their resource.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ApiException, AppsV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy, setHeaderOptions } from "@kubernetes/client-node";
import type { KubernetesObject, V1ConfigMap } from "@kubernetes/client-node";
import { LocalCluster } from "../../src/testing/index.ts";
import { raw, within } from "../support/wait.ts";
import { KUBECTL } from "../support/kubectl.ts";

const MiB = 1024 * 1024;
const cmPath = "/api/v1/namespaces/default/configmaps";

/** The HTTP code and parsed Status of a client-node failure. */
async function failure(p: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ApiException, `expected ApiException, got ${err}`);
    return { code: err.code, body: typeof err.body === "string" ? JSON.parse(err.body) : err.body };
  }
  assert.fail("the request succeeded");
}

/** A request whose path is sent byte for byte (fetch would resolve `..` and `%2e%2e` first). */
function rawPath(baseUrl: string, method: string, target: string, body?: string): Promise<{ code: number; body: any }> {
  const { hostname, port } = new URL(baseUrl);
  return within(
    new Promise((resolve, reject) => {
      const req = request({ host: hostname, port, method, path: target, headers: body ? { "Content-Type": "application/json" } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ code: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      });
      req.on("error", reject);
      req.end(body);
    }),
    `${method} ${target}`,
  );
}

const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("LocalCluster enforces kube-apiserver's limits", () => {
  let cluster: LocalCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  let objects: KubernetesObjectApi;
  before(async () => {
    cluster = await LocalCluster.start();
    core = cluster.kubeConfig.makeApiClient(CoreV1Api);
    apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    objects = KubernetesObjectApi.makeApiClient(cluster.kubeConfig);
  });
  after(() => within(cluster.stop(), "cluster.stop()"));

  describe("ConfigMap and Secret data", () => {
    it("takes 1 MiB of values and answers one byte more with 422 on the whole object", async () => {
      const at = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "at-limit" }, data: { a: "x".repeat(MiB - 3), b: "yyy" } } });
      assert.equal(at.data?.a?.length, MiB - 3);
      const over = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "over" }, data: { a: "x".repeat(MiB - 3), b: "yyyy" } } }));
      assert.equal(over.code, 422);
      // kube-apiserver v1.36 spells the path of the whole object `[]`.
      assert.equal(over.body.message, 'ConfigMap "over" is invalid: []: Too long: may not be more than 1048576 bytes');
      assert.deepEqual(over.body.details.causes, [{ reason: "FieldValueTooLong", message: "Too long: may not be more than 1048576 bytes", field: "[]" }]);
    });

    it("counts binaryData decoded and multi-byte characters as bytes, on update and patch too", async () => {
      const binary = Buffer.alloc(10).toString("base64");
      const over = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "mixed" }, data: { a: "x".repeat(MiB - 9) }, binaryData: { b: binary } } }));
      assert.equal(over.code, 422);
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "mixed" }, data: { a: "x".repeat(MiB - 10) }, binaryData: { b: binary } } });
      const replaced = await failure(core.replaceNamespacedConfigMap({ name: "mixed", namespace: "default", body: { metadata: { name: "mixed" }, data: { a: "é".repeat(MiB / 2) }, binaryData: { b: binary } } }));
      assert.equal(replaced.code, 422, "two bytes per é");
      const patched = await failure(core.patchNamespacedConfigMap({ name: "mixed", namespace: "default", body: { data: { c: "z" } } }, setHeaderOptions("Content-Type", PatchStrategy.MergePatch)));
      assert.equal(patched.code, 422);
      assert.match(patched.body.message, /: Too long: may not be more than 1048576 bytes$/);
      const kept = await core.readNamespacedConfigMap({ name: "mixed", namespace: "default" });
      assert.equal(kept.data?.c, undefined, "nothing of the failed writes is stored");
    });

    it("checks Secret data decoded (stringData included) and reports it on data", async () => {
      const at = Buffer.alloc(MiB).toString("base64");
      await core.createNamespacedSecret({ namespace: "default", body: { metadata: { name: "at-limit" }, data: { k: at } } });
      const over = await failure(core.createNamespacedSecret({ namespace: "default", body: { metadata: { name: "over" }, data: { k: at }, stringData: { s: "1" } } }));
      assert.equal(over.code, 422);
      assert.equal(over.body.message, 'Secret "over" is invalid: data: Too long: may not be more than 1048576 bytes');
      assert.equal(over.body.details.causes[0].field, "data");
    });

    it("rejects keys that are not config keys, with the key in the field path", async () => {
      const cases: [string, string][] = [
        ["a b", "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"],
        ["..", "must not be '..'"],
        ["..a", "must not start with '..'"],
        ["k".repeat(254), "must be no more than 253 characters"],
      ];
      for (const [key, message] of cases) {
        const r = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "bad-key" }, data: { [key]: "v" } } }));
        assert.equal(r.code, 422, key);
        assert.deepEqual(r.body.details.causes, [{ reason: "FieldValueInvalid", field: `data[${key}]`, message: `Invalid value: ${JSON.stringify(key)}: ${message}` }]);
      }
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "long-key" }, data: { ["k".repeat(253)]: "v", "-._Az09": "w" } } });
      const secret = await failure(core.createNamespacedSecret({ namespace: "default", body: { metadata: { name: "bad-key" }, stringData: { "a/b": "v" } } }));
      assert.equal(secret.body.details.causes[0].field, "data[a/b]");
      const binary = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "bad-key" }, binaryData: { "?": "AA==" } } }));
      assert.equal(binary.body.details.causes[0].field, "binaryData[?]");
    });

    it("rejects a key present in both data and binaryData", async () => {
      const r = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "dup" }, data: { k: "v" }, binaryData: { k: "AA==" } } }));
      assert.equal(r.code, 422);
      assert.equal(r.body.message, 'ConfigMap "dup" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData');
    });
  });

  describe("decode-time types of string maps", () => {
    const cannot = (kind: string, what: string) => `${kind} in version "v1" cannot be handled as a ${kind}: ${what}`;

    it("answers 400 to non-string values in data, binaryData, stringData, labels and annotations, on create and replace", async () => {
      const cases: [string, string, Record<string, unknown>, string][] = [
        [cmPath, "ConfigMap", { data: { a: 1 } }, "json: cannot unmarshal number into Go struct field ConfigMap.data of type string"],
        [cmPath, "ConfigMap", { data: { a: true } }, "json: cannot unmarshal bool into Go struct field ConfigMap.data of type string"],
        [cmPath, "ConfigMap", { data: ["x"] }, "json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string"],
        [cmPath, "ConfigMap", { binaryData: { a: {} } }, "json: cannot unmarshal object into Go struct field ConfigMap.binaryData of type []uint8"],
        [cmPath, "ConfigMap", { binaryData: { a: "!!!!" } }, "illegal base64 data at input byte 0"],
        [cmPath, "ConfigMap", { binaryData: { a: "AAA" } }, "illegal base64 data at input byte 0"],
        [cmPath, "ConfigMap", { binaryData: { a: "AAAAA===" } }, "illegal base64 data at input byte 5"],
        ["/api/v1/namespaces/default/secrets", "Secret", { data: { a: "QUJD!" } }, "illegal base64 data at input byte 4"],
        ["/api/v1/namespaces/default/secrets", "Secret", { stringData: { a: 5 } }, "json: cannot unmarshal number into Go struct field Secret.stringData of type string"],
        [cmPath, "ConfigMap", { metadata: { labels: { a: 1 } } }, "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"],
        [cmPath, "ConfigMap", { metadata: { annotations: { a: ["x"] } } }, "json: cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type string"],
        [cmPath, "ConfigMap", { metadata: { labels: "a=b" } }, "json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string"],
      ];
      for (const [path, kind, fields, message] of cases) {
        const body = { ...fields, metadata: { name: "typed", ...(fields.metadata as object | undefined) } };
        const created = await raw(cluster.url, "POST", path, body);
        assert.equal(created.code, 400, `create ${JSON.stringify(fields)}: ${created.text}`);
        assert.equal(created.body.reason, "BadRequest");
        assert.equal(created.body.message, cannot(kind, message));
      }
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "typed" }, data: { a: "1" } } });
      const replaced = await raw(cluster.url, "PUT", `${cmPath}/typed`, { metadata: { name: "typed", labels: { a: 2 } }, data: { a: "1" } });
      assert.equal(replaced.code, 400, replaced.text);
      assert.equal(replaced.body.message, cannot("ConfigMap", "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"));
      const applied = await raw(cluster.url, "PATCH", `${cmPath}/typed?fieldManager=typed`,
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "typed" }, binaryData: { b: "@@" } }, "application/apply-patch+yaml");
      assert.equal(applied.code, 400, applied.text);
      assert.equal(applied.body.message, cannot("ConfigMap", "illegal base64 data at input byte 0"));
      const stored = await core.readNamespacedConfigMap({ name: "typed", namespace: "default" });
      assert.deepEqual([stored.data, stored.binaryData, stored.metadata?.labels], [{ a: "1" }, undefined, undefined]);
    });

    it("answers 422 on the field patch to a merge or JSON patch whose result has a non-string value", async () => {
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "typed-patch" }, data: { a: "1" } } });
      const merge = await raw(cluster.url, "PATCH", `${cmPath}/typed-patch`, { data: { b: 2 } }, "application/merge-patch+json");
      assert.equal(merge.code, 422, merge.text);
      assert.equal(merge.body.details.causes[0].field, "patch");
      assert.match(merge.body.message, /: json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
      const json = await raw(cluster.url, "PATCH", `${cmPath}/typed-patch`, [{ op: "add", path: "/metadata/labels", value: { x: false } }], "application/json-patch+json");
      assert.equal(json.code, 422, json.text);
      assert.match(json.body.message, /cannot unmarshal bool into Go struct field ObjectMeta\.metadata\.labels of type string$/);
      const secret = await core.createNamespacedSecret({ namespace: "default", body: { metadata: { name: "typed-patch" }, data: { a: "QQ==" } } });
      assert.ok(secret.metadata?.uid);
      const b64 = await raw(cluster.url, "PATCH", "/api/v1/namespaces/default/secrets/typed-patch", { data: { a: "QQ=" } }, "application/strategic-merge-patch+json");
      assert.equal(b64.code, 422, b64.text);
      assert.match(b64.body.message, /illegal base64 data at input byte 3$/);
      assert.deepEqual((await core.readNamespacedConfigMap({ name: "typed-patch", namespace: "default" })).data, { a: "1" });
    });

    it("stores a null map value as the empty string, as Go's decoder reads it", async () => {
      const created = await raw(cluster.url, "POST", cmPath, { metadata: { name: "typed-null", labels: { a: null } }, data: { k: null } });
      assert.equal(created.code, 201, created.text);
      const cm = await core.readNamespacedConfigMap({ name: "typed-null", namespace: "default" });
      assert.deepEqual([cm.metadata?.labels, cm.data], [{ a: "" }, { k: "" }]);
    });
  });

  describe("labels", () => {
    const withLabels = (name: string, labels: Record<string, string>): V1ConfigMap => ({ metadata: { name, labels } });

    it("take a 253-character prefix, a 63-character name and a 63-character value", async () => {
      const prefix = `${"a".repeat(61)}.${"b".repeat(61)}.${"c".repeat(61)}.${"d".repeat(67)}`;
      assert.equal(prefix.length, 253);
      const labels = { [`${prefix}/${"N".repeat(63)}`]: "V".repeat(63), "x_y.z-1": "", "A": "a-b_c.d" };
      const cm = await core.createNamespacedConfigMap({ namespace: "default", body: withLabels("labels-ok", labels) });
      assert.deepEqual(cm.metadata?.labels, labels);
    });

    it("answer one character more, or a bad character, with 422 on metadata.labels", async () => {
      const nameMsg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
      const valueMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
      const cases: [Record<string, string>, string, string][] = [
        [{ ["n".repeat(64)]: "v" }, "n".repeat(64), "name part must be no more than 63 bytes"],
        [{ k: "v".repeat(64) }, "v".repeat(64), "must be no more than 63 bytes"],
        [{ [`${"p".repeat(254)}/n`]: "v" }, `${"p".repeat(254)}/n`, "prefix part must be no more than 253 characters"],
        [{ "bad key": "v" }, "bad key", nameMsg],
        [{ k: "-v" }, "-v", valueMsg],
        [{ "/n": "v" }, "/n", "prefix part must be non-empty"],
        [{ "p/": "v" }, "p/", "name part must be non-empty"],
        [{ __proto__x: "v" }, "__proto__x", nameMsg],
      ];
      for (const [labels, bad, message] of cases) {
        const r = await failure(core.createNamespacedConfigMap({ namespace: "default", body: withLabels("labels-bad", labels) }));
        assert.equal(r.code, 422, bad);
        assert.deepEqual(r.body.details.causes[0], { reason: "FieldValueInvalid", field: "metadata.labels", message: `Invalid value: ${JSON.stringify(bad)}: ${message}` });
        assert.ok(r.body.message.startsWith(`ConfigMap "labels-bad" is invalid: `), r.body.message);
        assert.ok(r.body.message.includes(`metadata.labels: Invalid value: ${JSON.stringify(bad)}: ${message}`), r.body.message);
      }
      const slashes = await failure(core.createNamespacedConfigMap({ namespace: "default", body: withLabels("labels-bad", { "a/b/c": "v" }) }));
      assert.match(slashes.body.details.causes[0].message, /a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    });

    it("reject a __proto__ key sent as raw JSON, and a bad label added by a patch", async () => {
      const r = await raw(cluster.url, "POST", cmPath, '{"metadata":{"name":"proto","labels":{"__proto__":"x"}}}');
      assert.equal(r.code, 422);
      assert.equal(r.body.details.causes[0].field, "metadata.labels");
      assert.equal((await raw(cluster.url, "GET", `${cmPath}/proto`)).code, 404);
      await core.createNamespacedConfigMap({ namespace: "default", body: withLabels("patched", { ok: "yes" }) });
      const patch = await raw(cluster.url, "PATCH", `${cmPath}/patched`, { metadata: { labels: { ok: "not ok" } } }, "application/merge-patch+json");
      assert.equal(patch.code, 422);
      const apply = await raw(cluster.url, "PATCH", `${cmPath}/patched?fieldManager=t`, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "patched", labels: { "a b": "c" } } }, "application/apply-patch+yaml");
      assert.equal(apply.code, 422);
      assert.deepEqual((await core.readNamespacedConfigMap({ name: "patched", namespace: "default" })).metadata?.labels, { ok: "yes" });
    });

    it("are checked on a workload's selector and pod template, and on custom resources", async () => {
      const deployment = (selector: Record<string, string>, template: Record<string, string>) => ({
        metadata: { name: "web" },
        spec: { selector: { matchLabels: selector }, template: { metadata: { labels: template }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
      });
      const sel = await failure(apps.createNamespacedDeployment({ namespace: "default", body: deployment({ "app!": "web" }, { "app!": "web" }) }));
      assert.equal(sel.code, 422);
      const fields = sel.body.details.causes.map((c: any) => c.field);
      assert.ok(fields.includes("spec.selector.matchLabels") && fields.includes("spec.template.metadata.labels"), fields.join());
      await apps.createNamespacedDeployment({ namespace: "default", body: deployment({ app: "web" }, { app: "web" }) });

      const crd = {
        apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "gadgets.example.com" },
        spec: {
          group: "example.com", scope: "Namespaced", names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
          versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } }],
        },
      };
      assert.equal((await raw(cluster.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).code, 201);
      const gadget = (name: string, labels: Record<string, string>) =>
        ({ apiVersion: "example.com/v1", kind: "Gadget", metadata: { name, namespace: "default", labels } }) as KubernetesObject;
      const bad = await failure(objects.create(gadget("g1", { k: "v v" })));
      assert.equal(bad.code, 422);
      assert.match(bad.body.message, /^Gadget\.example\.com "g1" is invalid: metadata\.labels: Invalid value: "v v"/);
      await objects.create(gadget("g1", { k: "v" }));
      const badName = await failure(objects.create(gadget("G1", {})));
      assert.equal(badName.code, 422, "custom resource names are DNS-1123 subdomains");
      assert.equal(badName.body.details.causes[0].field, "metadata.name");
    });
  });

  describe("annotations", () => {
    it("take 256 KiB of keys and values; one byte more is 422 on metadata.annotations", async () => {
      const annotations = { a: "x".repeat(128 * 1024 - 1), "example.com/B": "y".repeat(128 * 1024 - 13) };
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "notes", annotations } } });
      const over = await failure(core.patchNamespacedConfigMap(
        { name: "notes", namespace: "default", body: { metadata: { annotations: { a: "x".repeat(128 * 1024) } } } },
        setHeaderOptions("Content-Type", PatchStrategy.MergePatch),
      ));
      assert.equal(over.code, 422);
      assert.equal(over.body.message, 'ConfigMap "notes" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes');
      assert.deepEqual(over.body.details.causes, [{ reason: "FieldValueTooLong", field: "metadata.annotations", message: "Too long: may not be more than 262144 bytes" }]);
    });

    it("need qualified-name keys (in any case)", async () => {
      const r = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "bad-note", annotations: { "has space": "v" } } } }));
      assert.equal(r.code, 422);
      assert.equal(r.body.details.causes[0].field, "metadata.annotations");
      assert.match(r.body.details.causes[0].message, /^Invalid value: "has space": name part must consist of/);
      const free = await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "free-note", annotations: { "Example.COM/Key": "any value: at all!" } } } });
      assert.equal(free.metadata?.annotations?.["Example.COM/Key"], "any value: at all!");
    });
  });

  describe("object names", () => {
    it("are DNS-1035 labels for Services, DNS-1123 labels for Namespaces, subdomains elsewhere", async () => {
      const svc = await failure(core.createNamespacedService({ namespace: "default", body: { metadata: { name: "1web" }, spec: { ports: [{ port: 80 }] } } }));
      assert.equal(svc.code, 422);
      assert.equal(svc.body.details.causes[0].message,
        "Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
      await core.createNamespacedService({ namespace: "default", body: { metadata: { name: "w".repeat(63) }, spec: { ports: [{ port: 80 }] } } });
      const long = await failure(core.createNamespacedService({ namespace: "default", body: { metadata: { name: "w".repeat(64) }, spec: { ports: [{ port: 80 }] } } }));
      assert.equal(long.body.details.causes[0].message, `Invalid value: "${"w".repeat(64)}": must be no more than 63 characters`);
      const ns = await failure(core.createNamespace({ body: { metadata: { name: "team.a" } } }));
      assert.equal(ns.body.details.causes[0].message, 'Invalid value: "team.a": must not contain dots');
      await core.createNamespace({ body: { metadata: { name: "1team" } } });
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: `${"c".repeat(63)}.${"d".repeat(189)}` } } });
      const cm = await failure(core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: `${"c".repeat(63)}.${"d".repeat(190)}` } } }));
      assert.match(cm.body.details.causes[0].message, /must be no more than 253 characters$/);
    });
  });

  describe("body nesting", () => {
    it("decodes bodies as deep as LocalCluster handles and answers deeper ones with 400", async () => {
      // One level for the object itself, the rest in `extra`.
      const ok = await raw(cluster.url, "POST", cmPath, `{"metadata":{"name":"deep-ok"},"extra":${nestedArrays(999)}}`);
      assert.equal(ok.code, 201);
      const local = await raw(cluster.url, "POST", cmPath, `{"metadata":{"name":"deep-local"},"extra":${nestedArrays(1000)}}`);
      assert.equal(local.code, 400);
      assert.match(local.body.message, /exceeded max depth: LocalCluster decodes at most 1000 levels of nesting \(kube-apiserver: 10000\) \(\{"metadata"/);
      const kube = await raw(cluster.url, "POST", cmPath, `{"metadata":{"name":"deep-kube"},"extra":${nestedArrays(10_000)}}`);
      assert.equal(kube.code, 400);
      assert.equal(kube.body.message,
        `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: exceeded max depth ({"metadata":{"name":"deep-kube ...)`);
      const huge = await raw(cluster.url, "POST", cmPath, "[".repeat(3 * MiB - 10));
      assert.equal(huge.code, 400, "millions of levels are measured without recursion");
    });

    it("answers 400 for deep YAML, merge, strategic, json-patch and apply bodies", async () => {
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "deep-target" }, data: { k: "v" } } });
      const deep = nestedArrays(20_000);
      const cases: [string, string, string][] = [
        ["POST", cmPath, "application/yaml"],
        ["PATCH", `${cmPath}/deep-target`, "application/merge-patch+json"],
        ["PATCH", `${cmPath}/deep-target`, "application/strategic-merge-patch+json"],
        ["PATCH", `${cmPath}/deep-target?fieldManager=t`, "application/apply-patch+yaml"],
      ];
      for (const [method, target, type] of cases) {
        const body = type.includes("yaml") ? `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep-target}\nextra: ${deep}` : `{"extra":${deep}}`;
        const r = await raw(cluster.url, method, target, body, type);
        assert.equal(r.code, 400, type);
        assert.match(r.body.message, /exceeded max depth/, type);
      }
      const block = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep-block}\nextra:\n${Array.from({ length: 1500 }, (_, i) => `${"  ".repeat(i + 1)}a:`).join("\n")} 1`;
      assert.equal((await raw(cluster.url, "POST", cmPath, block, "application/yaml")).code, 400, "block YAML too");
      const jsonPatch = await raw(cluster.url, "PATCH", `${cmPath}/deep-target`, `[{"op":"add","path":"/extra","value":${deep}}]`, "application/json-patch+json");
      assert.equal(jsonPatch.code, 400);
      assert.equal(jsonPatch.body.message, "error decoding patch: exceeded max depth");
      const shallow = await raw(cluster.url, "PATCH", `${cmPath}/deep-target`, `{"extra":${nestedArrays(998)}}`, "application/merge-patch+json");
      assert.equal(shallow.code, 200);
      assert.equal((await raw(cluster.url, "GET", `${cmPath}/deep-target`)).code, 200, "the object reads back");
    });
  });

  describe("request paths", () => {
    it("answers malformed %-encoding with 400", async () => {
      for (const [method, target] of [
        ["GET", `${cmPath}/%E0%A4%A`],
        ["DELETE", `${cmPath}/%zz`],
        ["PUT", `${cmPath}/%`],
        ["GET", "/api/v1/namespaces/%E0%A4%A/configmaps"],
        ["GET", `${cmPath}/%C3%28`],
      ] as const) {
        const r = await rawPath(cluster.url, method, target, method === "PUT" ? "{}" : undefined);
        assert.equal(r.code, 400, `${method} ${target}`);
        assert.equal(r.body.kind, "Status");
        assert.equal(r.body.reason, "BadRequest");
      }
    });

    it("never lets `..`, `.`, `%2e%2e` or an encoded `/` name another resource", async () => {
      await core.createNamespacedConfigMap({ namespace: "default", body: { metadata: { name: "victim" } } });
      const names: [string, string][] = [
        ["..", "may not be '..'"],
        ["%2e%2e", "may not be '..'"],
        ["%2E%2E", "may not be '..'"],
        [".", "may not be '.'"],
        ["%2e", "may not be '.'"],
        ["x%2F..%2Fvictim", "may not contain '/'"],
        ["%25", "may not contain '%'"],
      ];
      for (const [name, why] of names) {
        for (const method of ["GET", "DELETE", "PUT", "PATCH"]) {
          const r = await rawPath(cluster.url, method, `${cmPath}/${name}`, method === "GET" || method === "DELETE" ? undefined : "{}");
          assert.equal(r.code, 400, `${method} ${name}`);
          assert.equal(r.body.kind, "Status", `${method} ${name}`);
          assert.match(r.body.message, new RegExp(`^Name parameter invalid: ".*": ${why}$`), `${method} ${name}`);
        }
      }
      for (const target of [`${cmPath}/../configmaps/victim`, `${cmPath}/%2e%2e/victim`, `/api/v1/namespaces/default/configmaps/x/../../../namespaces/default`]) {
        const r = await rawPath(cluster.url, "GET", target);
        assert.notEqual(r.code, 200, target);
        assert.equal(r.body.kind, "Status", target);
      }
      const list = await rawPath(cluster.url, "GET", "/api/v1/namespaces/../configmaps");
      assert.ok(list.code !== 200 || list.body.items.length === 0, "the `..` namespace holds nothing");
      assert.equal((await core.readNamespacedConfigMap({ name: "victim", namespace: "default" })).metadata?.name, "victim");
    });
  });

  const kubectl = KUBECTL;
  it("shows kubectl the server's message for a bad label", { skip: kubectl ? false : "no kubectl on PATH (set KUBECTL)" }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "limits-kubectl-"));
    try {
      const file = path.join(dir, "cm.yaml");
      await writeFile(file, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-kubectl\n  labels:\n    tier: front end\n");
      const run = promisify(execFile)(kubectl!, ["--kubeconfig", cluster.kubeconfigPath, "--cache-dir", path.join(dir, "cache"), "apply", "-f", file], { timeout: 30_000 });
      const err = await run.then(() => undefined, (e: { stderr?: string }) => e);
      assert.ok(err, "kubectl apply failed");
      assert.match(err.stderr ?? "", /metadata\.labels: Invalid value: "front end": a valid label must be an empty string/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
