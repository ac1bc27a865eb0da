import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { configReferenceKey, findConfigReferences } from "../../src/hash/index.ts";
import type { ConfigReference } from "../../src/hash/index.ts";

const cm = (name: string, optional = false): ConfigReference => ({ kind: "ConfigMap", name, optional });
const secret = (name: string, optional = false): ConfigReference => ({ kind: "Secret", name, optional });

describe("findConfigReferences", () => {
  it("finds ConfigMap and Secret volumes", () => {
    const refs = findConfigReferences({
      containers: [{ name: "c", image: "i" }],
      volumes: [
        { name: "a", configMap: { name: "vol-cm" } },
        { name: "b", secret: { secretName: "vol-secret" } },
        { name: "c", emptyDir: {} },
      ],
    });
    assert.deepEqual(refs, [cm("vol-cm"), secret("vol-secret")]);
  });

  it("finds ConfigMaps and Secrets in projected volume sources", () => {
    const refs = findConfigReferences({
      volumes: [{
        name: "p",
        projected: { sources: [
          { configMap: { name: "proj-cm" } },
          { secret: { name: "proj-secret" } },
          { serviceAccountToken: { path: "token" } },
          { downwardAPI: { items: [] } },
        ] },
      }],
    });
    assert.deepEqual(refs, [cm("proj-cm"), secret("proj-secret")]);
  });

  it("finds envFrom and env valueFrom references in containers, init containers and ephemeral containers", () => {
    const refs = findConfigReferences({
      initContainers: [{ name: "init", envFrom: [{ configMapRef: { name: "init-envfrom-cm" } }] }],
      containers: [{
        name: "main",
        envFrom: [{ secretRef: { name: "main-envfrom-secret" }, prefix: "DB_" }],
        env: [
          { name: "PLAIN", value: "x" },
          { name: "FROM_CM", valueFrom: { configMapKeyRef: { name: "main-env-cm", key: "k" } } },
          { name: "FROM_SECRET", valueFrom: { secretKeyRef: { name: "main-env-secret", key: "k" } } },
          { name: "FROM_FIELD", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
        ],
      }],
      ephemeralContainers: [{ name: "debug", env: [{ name: "E", valueFrom: { configMapKeyRef: { name: "ephemeral-cm", key: "k" } } }] }],
    });
    assert.deepEqual(refs, [
      cm("ephemeral-cm"), cm("init-envfrom-cm"), cm("main-env-cm"),
      secret("main-env-secret"), secret("main-envfrom-secret"),
    ]);
  });

  it("lists each object once, sorted by kind then name", () => {
    const refs = findConfigReferences({
      containers: [
        { name: "a", envFrom: [{ secretRef: { name: "zeta" } }, { configMapRef: { name: "shared" } }] },
        { name: "b", env: [{ name: "X", valueFrom: { configMapKeyRef: { name: "shared", key: "x" } } }] },
      ],
      volumes: [{ name: "v", configMap: { name: "shared" } }, { name: "w", configMap: { name: "alpha" } }, { name: "s", secret: { secretName: "beta" } }],
    });
    assert.deepEqual(refs, [cm("alpha"), cm("shared"), secret("beta"), secret("zeta")]);
  });

  it("keeps a ConfigMap and a Secret of the same name apart", () => {
    const refs = findConfigReferences({ volumes: [{ name: "a", secret: { secretName: "same" } }, { name: "b", configMap: { name: "same" } }] });
    assert.deepEqual(refs, [cm("same"), secret("same")]);
  });

  it("marks an object optional only when every reference to it is optional", () => {
    const refs = findConfigReferences({
      containers: [{
        name: "c",
        envFrom: [{ configMapRef: { name: "all-optional", optional: true } }, { configMapRef: { name: "mixed", optional: true } }],
        env: [
          { name: "A", valueFrom: { configMapKeyRef: { name: "all-optional", key: "a", optional: true } } },
          { name: "B", valueFrom: { secretKeyRef: { name: "opt-secret", key: "b", optional: true } } },
        ],
      }],
      volumes: [{ name: "m", configMap: { name: "mixed" } }, { name: "f", configMap: { name: "explicit-false", optional: false } }],
    });
    assert.deepEqual(refs, [cm("all-optional", true), cm("explicit-false"), cm("mixed"), secret("opt-secret", true)]);
  });

  it("skips references without a name and ignores malformed parts", () => {
    assert.deepEqual(findConfigReferences(undefined), []);
    assert.deepEqual(findConfigReferences({ volumes: "nope", containers: [null, 3, { envFrom: {} }] }), []);
    assert.deepEqual(findConfigReferences({ volumes: [{ name: "a", configMap: {} }, { name: "b", secret: { secretName: "" } }] }), []);
  });

  it("does not count imagePullSecrets, which containers never see", () => {
    assert.deepEqual(findConfigReferences({ imagePullSecrets: [{ name: "registry" }], containers: [{ name: "c" }] }), []);
  });
});

describe("configReferenceKey", () => {
  it("is kind/name", () => {
    assert.equal(configReferenceKey(cm("app-config")), "ConfigMap/app-config");
    assert.equal(configReferenceKey({ kind: "Secret", name: "db" }), "Secret/db");
  });
});
