import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { hash } from "node:crypto";
import {
  configDataHash, configHashEnvName, findConfigReferences, injectConfigHashes, withConfigHashes,
} from "../../src/hash/index.ts";
import type { ConfigReference } from "../../src/hash/index.ts";
import type { KubeObject } from "../../src/client/types.ts";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

type Env = { name: string; value?: string };
const envOf = (template: KubeObject, list = "containers", index = 0): Env[] =>
  ((template.spec as Record<string, { env?: Env[] }[]>)[list]![index]!.env ?? []);

function template(): KubeObject {
  return {
    metadata: { labels: { app: "web" } },
    spec: {
      initContainers: [{ name: "init", image: "busybox", envFrom: [{ secretRef: { name: "db" } }] }],
      containers: [
        { name: "web", image: "nginx", env: [{ name: "MODE", value: "prod" }, { name: "TOKEN", valueFrom: { secretKeyRef: { name: "api", key: "t" } } }] },
        { name: "sidecar", image: "envoy" },
      ],
      volumes: [{ name: "conf", configMap: { name: "web-conf" } }, { name: "extra", configMap: { name: "no-hash" } }],
    },
  };
}

const hashes = new Map([["ConfigMap/web-conf", "aaa"], ["Secret/db", "bbb"], ["Secret/api", "ccc"]]);
const injectedVars = [
  { name: "CONFIGMAP_WEB_CONF_HASH", value: "aaa" },
  { name: "SECRET_API_HASH", value: "ccc" },
  { name: "SECRET_DB_HASH", value: "bbb" },
];

describe("configDataHash", () => {
  it("hashes a ConfigMap's data and binaryData, pinned for a fixed input", () => {
    assert.equal(configDataHash({ kind: "ConfigMap", data: { a: "1" } }), "133c746ba00bae0996597a78e6683aec29358e612b64e67d75d98dfdd667966a");
    assert.notEqual(configDataHash({ kind: "ConfigMap", data: { a: "1" } }), configDataHash({ kind: "ConfigMap", data: { a: "2" } }));
    assert.notEqual(configDataHash({ kind: "ConfigMap", data: { a: "1" } }), configDataHash({ kind: "ConfigMap", data: { a: "1" }, binaryData: { b: "AA==" } }));
  });

  it("is not affected by metadata or immutable", () => {
    const plain = configDataHash({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" }, data: { a: "1" } });
    const decorated = configDataHash({
      apiVersion: "v1", kind: "ConfigMap", immutable: true, data: { a: "1" },
      metadata: { name: "x", namespace: "ns", uid: "u", resourceVersion: "42", labels: { l: "v" }, annotations: { a: "b" }, managedFields: [{}] },
    });
    assert.equal(decorated, plain);
  });

  it("treats absent data as empty", () => {
    assert.equal(configDataHash({ kind: "ConfigMap" }), configDataHash({ kind: "ConfigMap", data: {}, binaryData: {} }));
  });

  it("merges a Secret's stringData into data base64-encoded, as the API server does", () => {
    const desired = configDataHash({ kind: "Secret", type: "Opaque", stringData: { user: "app", pass: "pä$$" } });
    const live = configDataHash({ kind: "Secret", type: "Opaque", data: { user: "YXBw", pass: Buffer.from("pä$$").toString("base64") } });
    assert.equal(desired, live);
  });

  it("lets stringData win over data of the same key", () => {
    const both = configDataHash({ kind: "Secret", data: { user: "b2xk", other: "MQ==" }, stringData: { user: "new" } });
    assert.equal(both, configDataHash({ kind: "Secret", data: { user: "bmV3", other: "MQ==" } }));
  });

  it("includes the Secret type, Opaque when absent", () => {
    assert.equal(configDataHash({ kind: "Secret", data: { a: "MQ==" } }), "e226882bc197565be6d63475a3e56c42475008a7882f3760ef595f7f323bb281");
    assert.equal(configDataHash({ kind: "Secret", data: { a: "MQ==" } }), configDataHash({ kind: "Secret", type: "Opaque", data: { a: "MQ==" } }));
    assert.notEqual(configDataHash({ kind: "Secret", data: { a: "MQ==" } }), configDataHash({ kind: "Secret", type: "kubernetes.io/tls", data: { a: "MQ==" } }));
  });

  it("rejects other kinds and non-string stringData", () => {
    assert.throws(() => configDataHash({ kind: "Deployment" }), /expected a ConfigMap or Secret/);
    assert.throws(() => configDataHash({ kind: "Secret", stringData: { n: 1 } }), /stringData\.n is not a string/);
  });
});

describe("configHashEnvName", () => {
  it("upper-cases kind and name and maps - and . to _", () => {
    assert.equal(configHashEnvName("ConfigMap", "app-config"), "CONFIGMAP_APP_CONFIG_HASH");
    assert.equal(configHashEnvName("Secret", "tls.example.com"), "SECRET_TLS_EXAMPLE_COM_HASH");
  });

  it("always gives a valid env var name, the same every time", () => {
    for (const name of ["a", "0-starts-with-digit", "x.y-z", "Weird Name!", "ünï", "a".repeat(253)]) {
      for (const kind of ["ConfigMap", "Secret"] as const) {
        const env = configHashEnvName(kind, name);
        assert.match(env, /^[A-Z_][A-Z0-9_]*$/, env);
        assert.equal(configHashEnvName(kind, name), env);
      }
    }
  });

  it("rejects an empty name", () => {
    assert.throws(() => configHashEnvName("ConfigMap", ""), TypeError);
  });
});

describe("injectConfigHashes", () => {
  it("appends one var per referenced object with a hash, after the container's own env, sorted by name", () => {
    const out = injectConfigHashes(template(), hashes);
    assert.deepEqual(envOf(out), [
      { name: "MODE", value: "prod" },
      { name: "TOKEN", valueFrom: { secretKeyRef: { name: "api", key: "t" } } },
      ...injectedVars,
    ]);
    assert.deepEqual(envOf(out, "containers", 1), injectedVars);
    assert.deepEqual(envOf(out, "initContainers"), injectedVars);
  });

  it("skips referenced objects without a hash", () => {
    const out = injectConfigHashes(template(), hashes);
    assert.ok(!JSON.stringify(out).includes("CONFIGMAP_NO_HASH_HASH"));
  });

  it("leaves containers untouched when no referenced object has a hash", () => {
    const input = template();
    assert.equal(JSON.stringify(injectConfigHashes(input, new Map())), JSON.stringify(input));
  });

  it("gives byte-identical JSON for unchanged hashes, and is idempotent", () => {
    const once = injectConfigHashes(template(), hashes);
    const again = injectConfigHashes(template(), new Map(hashes));
    const twice = injectConfigHashes(once, hashes);
    assert.equal(JSON.stringify(again), JSON.stringify(once));
    assert.equal(JSON.stringify(twice), JSON.stringify(once));
  });

  it("changes only the changed object's var when one ConfigMap changes", () => {
    const before = injectConfigHashes(template(), hashes);
    const after = injectConfigHashes(before, new Map([...hashes, ["ConfigMap/web-conf", "ddd"]]));
    const expected = JSON.parse(JSON.stringify(before)) as KubeObject;
    for (const [list, i] of [["containers", 0], ["containers", 1], ["initContainers", 0]] as const) {
      envOf(expected, list, i).find((e) => e.name === "CONFIGMAP_WEB_CONF_HASH")!.value = "ddd";
    }
    assert.deepEqual(after, expected);
    assert.notEqual(JSON.stringify(after), JSON.stringify(before));
  });

  it("replaces an existing env var of the same name instead of adding a second one", () => {
    const input = template();
    (input.spec as { containers: { env?: Env[] }[] }).containers[1]!.env = [{ name: "SECRET_DB_HASH", value: "stale" }, { name: "Z", value: "z" }];
    const out = injectConfigHashes(input, hashes);
    assert.deepEqual(envOf(out, "containers", 1), [{ name: "Z", value: "z" }, ...injectedVars]);
  });

  it("suffixes colliding names with 6 hex characters of sha256(kind/name)", () => {
    const input: KubeObject = {
      spec: {
        containers: [{ name: "c", image: "i" }],
        volumes: [{ name: "a", configMap: { name: "app-config" } }, { name: "b", configMap: { name: "app.config" } }, { name: "c", configMap: { name: "other" } }],
      },
    };
    const suffix = (key: string) => hash("sha256", key, "hex").slice(0, 6).toUpperCase();
    const out = injectConfigHashes(input, new Map([["ConfigMap/app-config", "1"], ["ConfigMap/app.config", "2"], ["ConfigMap/other", "3"]]));
    const env = envOf(out);
    assert.deepEqual(env, [
      { name: `CONFIGMAP_APP_CONFIG_HASH_${suffix("ConfigMap/app-config")}`, value: "1" },
      { name: `CONFIGMAP_APP_CONFIG_HASH_${suffix("ConfigMap/app.config")}`, value: "2" },
      { name: "CONFIGMAP_OTHER_HASH", value: "3" },
    ].sort((a, b) => (a.name < b.name ? -1 : 1)));
    assert.equal(suffix("ConfigMap/app-config"), "341792");
    for (const e of env) assert.match(e.name, /^[A-Z_][A-Z0-9_]*$/);
  });

  it("never mutates its input and shares no objects with it", () => {
    const input = deepFreeze(template());
    const before = JSON.stringify(input);
    const out = injectConfigHashes(input, hashes);
    assert.equal(JSON.stringify(input), before);
    assert.notEqual(out.spec, input.spec);
    assert.notEqual(out.metadata, input.metadata);
    (out.metadata!.labels as Record<string, string>).app = "changed";
    assert.equal(input.metadata!.labels!.app, "web");
  });

  it("gives ephemeral containers no env, though their references count", () => {
    const input: KubeObject = { spec: { containers: [{ name: "c" }], ephemeralContainers: [{ name: "e", envFrom: [{ configMapRef: { name: "dbg" } }] }] } };
    const out = injectConfigHashes(input, new Map([["ConfigMap/dbg", "h"]]));
    assert.deepEqual(envOf(out), [{ name: "CONFIGMAP_DBG_HASH", value: "h" }]);
    assert.equal(envOf(out, "ephemeralContainers").length, 0);
  });
});

describe("withConfigHashes", () => {
  const workload = (kind: string): KubeObject => ({
    apiVersion: "apps/v1", kind, metadata: { name: "web", namespace: "ns" },
    spec: { replicas: 2, selector: { matchLabels: { app: "web" } }, template: template() },
  });

  it("injects the hashes lookup returns into a Deployment's or StatefulSet's template and lists every reference", () => {
    for (const kind of ["Deployment", "StatefulSet"]) {
      const input = deepFreeze(workload(kind));
      const asked: ConfigReference[] = [];
      const { object, referenced } = withConfigHashes(input, (ref) => {
        asked.push(ref);
        return hashes.get(`${ref.kind}/${ref.name}`);
      });
      const expectedRefs = findConfigReferences((input.spec as { template: KubeObject }).template.spec);
      assert.deepEqual(referenced, expectedRefs);
      assert.deepEqual(asked, expectedRefs);
      const expectedTemplate = injectConfigHashes((input.spec as { template: KubeObject }).template, hashes);
      assert.deepEqual(object, { ...input, spec: { ...(input.spec as object), template: expectedTemplate } });
      assert.equal(JSON.stringify(Object.keys(object.spec as object)), JSON.stringify(Object.keys(input.spec as object)));
    }
  });

  it("is byte-identical across reconciles when config is unchanged", () => {
    const lookup = (ref: ConfigReference) => hashes.get(`${ref.kind}/${ref.name}`);
    const first = withConfigHashes(workload("Deployment"), lookup).object;
    assert.equal(JSON.stringify(withConfigHashes(workload("Deployment"), lookup).object), JSON.stringify(first));
    assert.equal(JSON.stringify(withConfigHashes(first, lookup).object), JSON.stringify(first));
  });

  it("returns a copy and no references for a workload without a template", () => {
    const input: KubeObject = { apiVersion: "v1", kind: "Service", metadata: { name: "s" }, spec: { ports: [] } };
    const { object, referenced } = withConfigHashes(input, () => "h");
    assert.deepEqual(object, input);
    assert.notEqual(object, input);
    assert.deepEqual(referenced, []);
  });
});
