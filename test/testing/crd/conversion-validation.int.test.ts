/**
 * LocalCluster validates a CRD's `spec.conversion` as kube-apiserver 1.36 does, on create and
 * update over HTTP: the strategy, the webhook client config (exactly one of url and service,
 * their own rules), `conversionReviewVersions`, with the internal field paths
 * (`spec.conversion.webhookClientConfig…`) and kube-apiserver's messages, in one 422.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ApiextensionsV1Api } from "@kubernetes/client-node";
import type { V1CustomResourceConversion, V1CustomResourceDefinition } from "@kubernetes/client-node";
import { LocalCluster } from "../../../src/testing/index.ts";
import { within } from "../../support/wait.ts";
import { causeLines, rejection } from "../../support/kube-objects.ts";

const SCHEMA = { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } } };

function crd(plural: string, conversion: unknown): V1CustomResourceDefinition {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.conv.example.com` },
    spec: {
      group: "conv.example.com",
      scope: "Namespaced",
      names: { plural, kind: plural[0]!.toUpperCase() + plural.slice(1, -1) },
      versions: [
        { name: "v1alpha1", served: true, storage: false, schema: SCHEMA },
        { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { ...SCHEMA.openAPIV3Schema, description: "v1" } } },
      ],
      conversion: conversion as V1CustomResourceConversion,
    },
  } as V1CustomResourceDefinition;
}

describe("LocalCluster CRD conversion validation", () => {
  let cluster: LocalCluster;
  let ext: ApiextensionsV1Api;
  before(async () => {
    cluster = await LocalCluster.start();
    ext = cluster.kubeConfig.makeApiClient(ApiextensionsV1Api);
  });
  after(async () => {
    await within(cluster.stop(), "LocalCluster to stop");
  });

  const failure = async (p: Promise<unknown>) => {
    const { code, body } = await rejection(p);
    return { code, body, lines: causeLines(body) };
  };
  const create = (plural: string, conversion: unknown) => ext.createCustomResourceDefinition({ body: crd(plural, conversion) });

  it("requires a client config and review versions for Webhook, and forbids them for None", async () => {
    const webhook = await failure(create("alphas", { strategy: "Webhook" }));
    assert.equal(webhook.code, 422);
    assert.equal(webhook.body.details.kind, "CustomResourceDefinition");
    assert.deepEqual(webhook.lines, [
      "spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook",
      "spec.conversion.conversionReviewVersions: Required value",
    ]);
    const none = await failure(create("betas", { strategy: "None", webhook: { clientConfig: { url: "https://conv.example.com" }, conversionReviewVersions: ["v1"] } }));
    assert.deepEqual(none.lines, [
      "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook",
      "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook",
    ]);
    const bogus = await failure(create("gammas", { strategy: "Bogus" }));
    assert.deepEqual(bogus.lines, ['spec.conversion.strategy: Unsupported value: "Bogus": supported values: "None", "Webhook"']);
  });

  it("checks the url, the service reference and the review versions", async () => {
    const both = await failure(create("deltas", {
      strategy: "Webhook",
      webhook: { clientConfig: { url: "https://conv.example.com", service: { name: "conv", namespace: "ops" } }, conversionReviewVersions: ["v1"] },
    }));
    assert.deepEqual(both.lines, ["spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required"]);
    const url = await failure(create("epsilons", {
      strategy: "Webhook", webhook: { clientConfig: { url: "http://conv.example.com/convert?x=1" }, conversionReviewVersions: ["v2", "v2", "V3"] },
    }));
    assert.deepEqual(url.lines, [
      "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'spec.conversion.webhookClientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      "spec.conversion.conversionReviewVersions[2]: Invalid value: \"V3\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2","V3"]: must include at least one of v1, v1beta1',
    ]);
    const service = await failure(create("zetas", {
      strategy: "Webhook", webhook: { clientConfig: { service: { name: "conv", namespace: "", port: 70000, path: "/convert/" } }, conversionReviewVersions: ["v1beta1"] },
    }));
    assert.deepEqual(service.lines, [
      "spec.conversion.webhookClientConfig.service.name: Required value: service name is required",
      "spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
    ]);
  });

  it("accepts a valid Webhook conversion, and validates the conversion of an update", async () => {
    const ok = await create("etas", { strategy: "Webhook", webhook: { clientConfig: { service: { name: "conv", namespace: "ops", path: "/convert" } }, conversionReviewVersions: ["v1"] } });
    assert.equal(ok.spec.conversion!.strategy, "Webhook");
    const stored = await ext.readCustomResourceDefinition({ name: "etas.conv.example.com" });
    stored.spec.conversion = { strategy: "Webhook", webhook: { clientConfig: { url: "https://user@conv.example.com/convert" }, conversionReviewVersions: [] } } as V1CustomResourceConversion;
    const { code, lines } = await failure(ext.replaceCustomResourceDefinition({ name: "etas.conv.example.com", body: stored }));
    assert.equal(code, 422);
    assert.deepEqual(lines, [
      'spec.conversion.webhookClientConfig.url: Invalid value: "user": user information is not permitted in the URL',
      "spec.conversion.conversionReviewVersions: Required value",
    ]);
  });

  // Needs src/testing/kind-rules.ts to hand the stored CRD to validateCrd (validateCrd(obj, old)).
  it("on update, refuses an undecodable caBundle and dropping a version listed in status.storedVersions", async () => {
    await create("thetas", { strategy: "None" });
    const stored = await ext.readCustomResourceDefinition({ name: "thetas.conv.example.com" });
    const bundle = Buffer.from("not a certificate").toString("base64");
    stored.spec.conversion = { strategy: "Webhook", webhook: { clientConfig: { url: "https://conv.example.com/convert", caBundle: bundle }, conversionReviewVersions: ["v1"] } };
    const bad = await failure(ext.replaceCustomResourceDefinition({ name: "thetas.conv.example.com", body: stored }));
    assert.deepEqual(bad.lines, [`spec.conversion.webhookClientConfig.caBundle: Invalid value: "${bundle}": data does not contain any valid RSA or ECDSA certificates`]);
    // Switch the storage version to v1alpha1 (storedVersions: [v1, v1alpha1]), then drop v1.
    const switched = await ext.readCustomResourceDefinition({ name: "thetas.conv.example.com" });
    switched.spec.versions = switched.spec.versions.map((v) => ({ ...v, storage: v.name === "v1alpha1" }));
    const after = await ext.replaceCustomResourceDefinition({ name: "thetas.conv.example.com", body: switched });
    assert.deepEqual(after.status!.storedVersions, ["v1", "v1alpha1"]);
    after.spec.versions = after.spec.versions.filter((v) => v.name !== "v1");
    const dropped = await failure(ext.replaceCustomResourceDefinition({ name: "thetas.conv.example.com", body: after }));
    assert.deepEqual(dropped.lines, [
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
  });
});
