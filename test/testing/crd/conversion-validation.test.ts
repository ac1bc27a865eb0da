/**
 * `validateCrd` on `spec.conversion` and `status.storedVersions`: the rules that depend on
 * the stored CRD (update), checked on the function itself.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crdDefaults, validateCrd } from "../../../src/testing/crd/crd-validation.ts";
import type { KubeObject } from "../../../src/testing/resource-type.ts";
import { selfSignedCertificate } from "../../../src/testing/auth/self-signed.ts";
import { StatusError } from "../../../src/testing/status.ts";

const SCHEMA = { openAPIV3Schema: { type: "object", properties: { spec: { type: "object" } } } };
const GOOD_BUNDLE = Buffer.from(selfSignedCertificate().cert).toString("base64");
const BAD_BUNDLE = Buffer.from("not a certificate").toString("base64");

/** A two-version CRD (v1 stored) with `conversion`, as stored after create. */
function crd(conversion: unknown, edit: (c: any) => void = () => {}): KubeObject {
  const c: any = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { kind: "Widget", plural: "widgets" },
      versions: [
        { name: "v1alpha1", served: true, storage: false, schema: SCHEMA },
        { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { ...SCHEMA.openAPIV3Schema, description: "v1" } } },
      ],
      conversion,
    },
  };
  edit(c);
  return crdDefaults(c, new Date("2026-01-01T00:00:00Z"));
}

const webhook = (clientConfig: Record<string, unknown>, versions: unknown = ["v1"]) => ({
  strategy: "Webhook", webhook: { clientConfig, conversionReviewVersions: versions },
});

/** The causes `fn` throws as a 422 (none when it returns). */
function lines(fn: () => unknown): string[] {
  try {
    fn();
    return [];
  } catch (err) {
    assert.ok(err instanceof StatusError && err.code === 422, `expected a 422, got ${String(err)}`);
    return (err.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  }
}

describe("validateCrd: conversion on update", () => {
  it("tolerates an undecodable caBundle on create, refuses it on update of an established CRD with a good one", () => {
    const bad = crd(webhook({ url: "https://conv.example.com/convert", caBundle: BAD_BUNDLE }));
    assert.deepEqual(lines(() => validateCrd(bad)), []);
    const stored = crd(webhook({ url: "https://conv.example.com/convert", caBundle: GOOD_BUNDLE }));
    assert.deepEqual(lines(() => validateCrd(bad, stored)), [
      `spec.conversion.webhookClientConfig.caBundle: Invalid value: "${BAD_BUNDLE}": data does not contain any valid RSA or ECDSA certificates`,
    ]);
    // The stored CRD had no caBundle: a new one must decode too.
    assert.equal(lines(() => validateCrd(bad, crd(webhook({ url: "https://conv.example.com/convert" })))).length, 1);
    // The stored caBundle was undecodable already: kept tolerated.
    assert.deepEqual(lines(() => validateCrd(bad, bad)), []);
    assert.deepEqual(lines(() => validateCrd(stored, stored)), []);
  });

  it("requires a known review version unless the stored CRD listed none it knows", () => {
    const unknown = crd(webhook({ url: "https://conv.example.com/convert" }, ["v2"]));
    assert.deepEqual(lines(() => validateCrd(unknown)), ['spec.conversion.conversionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1']);
    assert.deepEqual(lines(() => validateCrd(unknown, crd(webhook({ url: "https://conv.example.com/convert" }, ["v3"])))), []);
    assert.equal(lines(() => validateCrd(unknown, crd(webhook({ url: "https://conv.example.com/convert" })))).length, 1);
  });

  it("refuses Webhook with preserveUnknownFields: true", () => {
    const c = crd(webhook({ url: "https://conv.example.com/convert" }), (x) => (x.spec.preserveUnknownFields = true));
    assert.deepEqual(lines(() => validateCrd(c)), ['spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true']);
  });
});

describe("validateCrd: status.storedVersions", () => {
  it("on update, refuses dropping a version still listed in storedVersions from spec.versions", () => {
    const stored = crd({ strategy: "None" });
    (stored.status as any).storedVersions = ["v1alpha1", "v1"];
    const next = structuredClone(stored) as any;
    next.spec.versions = next.spec.versions.filter((v: any) => v.name !== "v1alpha1");
    assert.deepEqual(lines(() => validateCrd(next, stored)), [
      'status.storedVersions[0]: Invalid value: "v1alpha1": missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions',
    ]);
    // The create strategy resets the list to the storage version.
    assert.deepEqual(lines(() => validateCrd(next)), []);
  });

  it("reports a storage version the create strategy could not record, and a second storage version", () => {
    const none = crd({ strategy: "None" }, (x) => (x.spec.versions[1].storage = false));
    assert.ok(lines(() => validateCrd(none)).includes("status.storedVersions: Invalid value: null: must have at least one stored version"));
    const two = crd({ strategy: "None" }, (x) => (x.spec.versions[0].storage = true));
    assert.ok(lines(() => validateCrd(two)).includes('status.storedVersions: Invalid value: ["v1alpha1"]: must have the storage version v1'));
  });
});
