/**
 * LocalCluster serving a multi-version CRD with `spec.conversion.strategy: Webhook`: a real
 * HTTPS conversion webhook (its own CA as the CRD's caBundle) renames `spec.name` (v1alpha1)
 * to `spec.firstName` (v1, the storage version), and every read, list, watch and write at
 * v1alpha1 goes through it; failures answer as kube-apiserver does.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:https";
import type { Server } from "node:https";
import type { AddressInfo } from "node:net";
import { LocalCluster } from "../../../src/testing/index.ts";
import { selfSignedCertificate } from "../../../src/testing/auth/self-signed.ts";
import { raw, waitFor, within } from "../../support/wait.ts";
import { openWatch } from "../../support/watch-stream.ts";
import { convertRenamed } from "./rename-field.ts";

const GROUP = "conv.example.com";
const CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

/** How the test webhook answers. */
type Mode = "ok" | "wrong-uid" | "wrong-version" | "wrong-count" | "bad-label" | "fail" | "relabel";

/** A ConversionReview request as the webhook receives it. */
interface ReviewRequest {
  apiVersion: string;
  kind: string;
  request: { uid: string; desiredAPIVersion: string; objects: any[] };
}


/** An HTTPS conversion webhook on 127.0.0.1 whose answers the test switches. */
async function startWebhook(cert: string, key: string) {
  const state = { mode: "ok" as Mode, reviews: [] as ReviewRequest[] };
  const server: Server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReviewRequest;
      state.reviews.push(review);
      const { uid, desiredAPIVersion, objects } = review.request;
      let convertedObjects = objects.map((o) => convertRenamed(o, desiredAPIVersion));
      let result: Record<string, unknown> = { status: "Success" };
      let answerUid = uid;
      if (state.mode === "wrong-uid") answerUid = "not-the-request-uid";
      if (state.mode === "wrong-version") convertedObjects = objects;
      if (state.mode === "wrong-count") convertedObjects = [];
      if (state.mode === "bad-label") for (const o of convertedObjects) o.metadata.labels = { "bad key!": "x" };
      if (state.mode === "fail") {
        convertedObjects = [];
        result = { status: "Failure", message: "cannot convert greetings today" };
      }
      if (state.mode === "relabel") {
        for (const o of convertedObjects) {
          o.metadata = { ...o.metadata, labels: { ...o.metadata.labels, converted: "yes" }, resourceVersion: "1", generation: 99 };
        }
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", response: { uid: answerUid, convertedObjects, result } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/convert`;
  return { server, url, state };
}

/** A CRD of `kind` with versions v1alpha1 (`spec.name`) and v1 (`spec.firstName`). */
function greetingCrd(plural: string, kind: string, conversion: unknown, storage: "v1" | "v1alpha1" = "v1"): unknown {
  const schema = (field: string) => ({
    openAPIV3Schema: {
      type: "object",
      properties: {
        spec: { type: "object", properties: { [field]: { type: "string" } } },
        status: { type: "object", properties: { phase: { type: "string" } } },
      },
    },
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural, kind },
      versions: [
        { name: "v1alpha1", served: true, storage: storage === "v1alpha1", subresources: { status: {} }, schema: schema("name") },
        { name: "v1", served: true, storage: storage === "v1", subresources: { status: {} }, schema: schema("firstName") },
      ],
      conversion,
    },
  };
}

const webhookConversion = (url: string, caBundle: string) => ({
  strategy: "Webhook",
  webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: ["v1"] },
});

const at = (version: string, plural: string, name = "") => `/apis/${GROUP}/${version}/namespaces/default/${plural}${name ? `/${name}` : ""}`;

describe("LocalCluster conversion webhooks", () => {
  let cluster: LocalCluster;
  let hook: Awaited<ReturnType<typeof startWebhook>>;
  let caBundle: string;
  /** A port nothing listens on. */
  let deadPort: number;

  before(async () => {
    const { cert, key } = selfSignedCertificate();
    caBundle = Buffer.from(cert).toString("base64");
    hook = await startWebhook(cert, key);
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    deadPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    cluster = await LocalCluster.start();
    assert.equal((await raw(cluster.url, "POST", CRD_PATH, greetingCrd("greetings", "Greeting", webhookConversion(hook.url, caBundle)))).code, 201);
  });
  after(async () => {
    await within(cluster.stop(), "cluster.stop()");
    hook.server.closeAllConnections();
    await new Promise<void>((resolve) => hook.server.close(() => resolve()));
  });

  /** Runs `fn` with the webhook in `mode`, back to "ok" after. */
  async function inMode<T>(mode: Mode, fn: () => Promise<T>): Promise<T> {
    hook.state.mode = mode;
    try {
      return await fn();
    } finally {
      hook.state.mode = "ok";
    }
  }

  it("stores an object created at v1alpha1 at v1, converted by the webhook, and answers at the requested version", async () => {
    const before = hook.state.reviews.length;
    const created = await raw(cluster.url, "POST", at("v1alpha1", "greetings"), {
      apiVersion: `${GROUP}/v1alpha1`, kind: "Greeting", metadata: { name: "alpha" }, spec: { name: "Ada" },
    });
    assert.equal(created.code, 201, created.text);
    assert.equal(created.body.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(created.body.spec, { name: "Ada" });
    // In storage at v1, with the renamed field.
    const stored = cluster.peek({ group: GROUP, plural: "greetings" }, "default", "alpha")!;
    assert.equal(stored.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(stored.spec, { firstName: "Ada" });
    // One review to the storage version, one back for the answer.
    const reviews = hook.state.reviews.slice(before);
    assert.deepEqual(reviews.map((r) => r.request.desiredAPIVersion), [`${GROUP}/v1`, `${GROUP}/v1alpha1`]);
    assert.equal(reviews[0]!.apiVersion, "apiextensions.k8s.io/v1");
    assert.equal(reviews[0]!.kind, "ConversionReview");
    assert.match(reviews[0]!.request.uid, /^[0-9a-f-]{36}$/);
    assert.notEqual(reviews[0]!.request.uid, reviews[1]!.request.uid);
    // The answer is converted from the stored object: it carries its uid and resourceVersion.
    assert.equal(reviews[1]!.request.objects[0].metadata.uid, stored.metadata!.uid);
  });

  it("reads an object at both versions; the storage version needs no webhook call", async () => {
    const before = hook.state.reviews.length;
    const v1 = await raw(cluster.url, "GET", at("v1", "greetings", "alpha"));
    assert.equal(v1.code, 200);
    assert.equal(v1.body.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(v1.body.spec, { firstName: "Ada" });
    assert.equal(hook.state.reviews.length, before, "no review for the storage version");
    const alpha = await raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha"));
    assert.equal(alpha.code, 200);
    assert.equal(alpha.body.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(alpha.body.spec, { name: "Ada" });
    assert.equal(alpha.body.metadata.resourceVersion, v1.body.metadata.resourceVersion);
    assert.equal(hook.state.reviews.length, before + 1);
    // The /status subresource too.
    const status = await raw(cluster.url, "GET", `${at("v1alpha1", "greetings", "alpha")}/status`);
    assert.equal(status.code, 200);
    assert.deepEqual(status.body.spec, { name: "Ada" });
  });

  it("lists at v1alpha1 with every item converted in one review", async () => {
    for (const name of ["list-a", "list-b"]) {
      const res = await raw(cluster.url, "POST", at("v1", "greetings"), { apiVersion: `${GROUP}/v1`, kind: "Greeting", metadata: { name }, spec: { firstName: name } });
      assert.equal(res.code, 201, res.text);
    }
    const before = hook.state.reviews.length;
    const list = await raw(cluster.url, "GET", at("v1alpha1", "greetings"));
    assert.equal(list.code, 200, list.text);
    assert.equal(list.body.kind, "GreetingList");
    assert.equal(list.body.apiVersion, `${GROUP}/v1alpha1`);
    const items = list.body.items as any[];
    assert.ok(items.length >= 3);
    for (const item of items) {
      assert.equal(item.apiVersion, `${GROUP}/v1alpha1`);
      assert.equal(item.spec.firstName, undefined);
      assert.equal(typeof item.spec.name, "string");
    }
    const reviews = hook.state.reviews.slice(before);
    assert.equal(reviews.length, 1);
    assert.equal(reviews[0]!.request.objects.length, items.length);
  });

  it("watches at v1alpha1: initial and live events arrive converted, in order", async () => {
    const w = await openWatch(cluster.url, `${at("v1alpha1", "greetings")}?watch=true&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    try {
      await waitFor(() => w.events.some((e) => e.type === "BOOKMARK"), "the initial-events-end bookmark");
      const initial = w.events.filter((e) => e.type === "ADDED");
      assert.ok(initial.length >= 3);
      // The bookmark comes after every initial event.
      assert.equal(w.events.findIndex((e) => e.type === "BOOKMARK"), initial.length);
      for (const e of initial) assert.equal(e.object.apiVersion, `${GROUP}/v1alpha1`);
      const created = await raw(cluster.url, "POST", at("v1", "greetings"), { apiVersion: `${GROUP}/v1`, kind: "Greeting", metadata: { name: "watched" }, spec: { firstName: "Grace" } });
      assert.equal(created.code, 201);
      const patched = await raw(cluster.url, "PATCH", at("v1", "greetings", "watched"), { spec: { firstName: "Hopper" } }, "application/merge-patch+json");
      assert.equal(patched.code, 200, patched.text);
      await waitFor(() => w.events.some((e) => e.type === "MODIFIED" && e.object.metadata.name === "watched"), "the MODIFIED event");
      const live = w.events.filter((e) => e.object.metadata.name === "watched");
      assert.deepEqual(live.map((e) => [e.type, e.object.apiVersion, e.object.spec]), [
        ["ADDED", `${GROUP}/v1alpha1`, { name: "Grace" }],
        ["MODIFIED", `${GROUP}/v1alpha1`, { name: "Hopper" }],
      ]);
    } finally {
      w.stop();
    }
  });

  it("updates through v1alpha1: the body is converted to v1 for storage", async () => {
    const current = await raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha"));
    const body = { ...current.body, spec: { name: "Lovelace" } };
    const updated = await raw(cluster.url, "PUT", at("v1alpha1", "greetings", "alpha"), body);
    assert.equal(updated.code, 200, updated.text);
    assert.equal(updated.body.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(updated.body.spec, { name: "Lovelace" });
    const stored = cluster.peek({ group: GROUP, plural: "greetings" }, "default", "alpha")!;
    assert.equal(stored.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(stored.spec, { firstName: "Lovelace" });
    assert.equal(stored.metadata!.resourceVersion, updated.body.metadata.resourceVersion);
  });

  it("keeps the original metadata but the labels and annotations the webhook changed", async () => {
    const v1 = await raw(cluster.url, "GET", at("v1", "greetings", "alpha"));
    const alpha = await inMode("relabel", () => raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha")));
    assert.equal(alpha.code, 200, alpha.text);
    assert.equal(alpha.body.metadata.labels.converted, "yes");
    assert.equal(alpha.body.metadata.resourceVersion, v1.body.metadata.resourceVersion);
    assert.equal(alpha.body.metadata.generation, v1.body.metadata.generation);
  });

  it("answers 500 with kube-apiserver's message when the webhook answers another uid", async () => {
    const before = hook.state.reviews.length;
    const res = await inMode("wrong-uid", () => raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha")));
    const uid = hook.state.reviews[before]!.request.uid;
    assert.equal(res.code, 500);
    assert.deepEqual(res.body, {
      kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", code: 500,
      message: `conversion for ${GROUP}/v1, Kind=Greeting failed: conversion webhook for /, Kind= failed: expected response.uid="${uid}", got "not-the-request-uid"`,
    });
  });

  it("refuses a converted object at the wrong apiVersion, and a failed result, for reads and lists", async () => {
    const get = await inMode("wrong-version", () => raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha")));
    assert.equal(get.code, 500);
    assert.equal(get.body.message,
      `conversion for ${GROUP}/v1, Kind=Greeting returned invalid converted object at index 1: invalid groupVersion (expected ${GROUP}/v1alpha1, received ${GROUP}/v1)`);
    const list = await inMode("fail", () => raw(cluster.url, "GET", at("v1alpha1", "greetings")));
    assert.equal(list.code, 500);
    assert.equal(list.body.message, `conversion for ${GROUP}/v1, Kind=Greeting failed: conversion webhook for /, Kind= failed: cannot convert greetings today`);
  });

  it("refuses an answer with another number of objects, or invalid labels", async () => {
    const count = await inMode("wrong-count", () => raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha")));
    assert.equal(count.code, 500);
    assert.equal(count.body.message, `conversion for ${GROUP}/v1, Kind=Greeting returned 0 objects, expected 1`);
    const label = await inMode("bad-label", () => raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha")));
    assert.equal(label.code, 500);
    assert.ok(label.body.message.startsWith(
      `conversion for ${GROUP}/v1, Kind=Greeting returned invalid metadata in object at index 1: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters`,
    ), label.body.message);
  });

  it("converts the objects of a Table", async () => {
    const accept = { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" };
    const table = await raw(cluster.url, "GET", `${at("v1alpha1", "greetings")}?includeObject=Object`, undefined, undefined, accept);
    assert.equal(table.code, 200, table.text);
    assert.equal(table.body.kind, "Table");
    for (const row of table.body.rows) {
      assert.equal(row.object.apiVersion, `${GROUP}/v1alpha1`);
      assert.equal(row.object.spec.firstName, undefined);
    }
    const one = await raw(cluster.url, "GET", `${at("v1alpha1", "greetings", "alpha")}?includeObject=Object`, undefined, undefined, accept);
    assert.equal(one.code, 200, one.text);
    assert.equal(one.body.rows[0].object.apiVersion, `${GROUP}/v1alpha1`);
    assert.equal(typeof one.body.rows[0].object.spec.name, "string");
  });

  it("fails a write at v1alpha1 when its conversion fails, storing nothing", async () => {
    const res = await inMode("fail", () => raw(cluster.url, "POST", at("v1alpha1", "greetings"), {
      apiVersion: `${GROUP}/v1alpha1`, kind: "Greeting", metadata: { name: "never" }, spec: { name: "x" },
    }));
    assert.equal(res.code, 500);
    assert.match(res.body.message, /^conversion for conv\.example\.com\/v1alpha1, Kind=Greeting failed: conversion webhook for \/, Kind= failed: cannot convert greetings today$/);
    assert.equal(cluster.peek({ group: GROUP, plural: "greetings" }, "default", "never"), undefined);
  });

  it("ends a watch, without an ERROR event, when an event's conversion fails", async () => {
    const w = await openWatch(cluster.url, `${at("v1alpha1", "greetings")}?watch=true&resourceVersion=${cluster.resourceVersion}`);
    hook.state.mode = "fail";
    try {
      const res = await raw(cluster.url, "PATCH", at("v1", "greetings", "list-a"), { spec: { firstName: "changed" } }, "application/merge-patch+json");
      assert.equal(res.code, 200, res.text);
      await within(w.done, "the watch to end");
      assert.deepEqual(w.events, []);
    } finally {
      hook.state.mode = "ok";
      w.stop();
    }
  });

  it("answers 500 with the connection error when the webhook is down", async () => {
    const crd = greetingCrd("downs", "Down", webhookConversion(`https://127.0.0.1:${deadPort}/convert`, caBundle));
    assert.equal((await raw(cluster.url, "POST", CRD_PATH, crd)).code, 201);
    // At the storage version nothing is converted.
    const created = await raw(cluster.url, "POST", at("v1", "downs"), { apiVersion: `${GROUP}/v1`, kind: "Down", metadata: { name: "d" }, spec: { firstName: "d" } });
    assert.equal(created.code, 201, created.text);
    const res = await raw(cluster.url, "GET", at("v1alpha1", "downs", "d"));
    assert.equal(res.code, 500);
    assert.equal(res.body.reason, undefined);
    assert.equal(res.body.message,
      `conversion for ${GROUP}/v1, Kind=Down failed: conversion webhook for /, Kind= failed: Post "https://127.0.0.1:${deadPort}/convert?timeout=30s": dial tcp 127.0.0.1:${deadPort}: connect: connection refused`);
  });

  it("fails the call when the caBundle did not sign the webhook's certificate", async () => {
    const stranger = Buffer.from(selfSignedCertificate().cert).toString("base64");
    const crd = greetingCrd("strangers", "Stranger", webhookConversion(hook.url, stranger));
    assert.equal((await raw(cluster.url, "POST", CRD_PATH, crd)).code, 201);
    const created = await raw(cluster.url, "POST", at("v1", "strangers"), { apiVersion: `${GROUP}/v1`, kind: "Stranger", metadata: { name: "s" }, spec: { firstName: "s" } });
    assert.equal(created.code, 201, created.text);
    const before = hook.state.reviews.length;
    const res = await raw(cluster.url, "GET", at("v1alpha1", "strangers", "s"));
    assert.equal(res.code, 500);
    assert.match(res.body.message, /^conversion for conv\.example\.com\/v1, Kind=Stranger failed: conversion webhook for \/, Kind= failed: Post "https:\/\/127\.0\.0\.1:\d+\/convert\?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority$/);
    assert.equal(hook.state.reviews.length, before, "the webhook never saw the review");
  });

  it("converts objects still stored at the old version after a storage version switch", async () => {
    const crd = greetingCrd("switches", "Switch", webhookConversion(hook.url, caBundle), "v1alpha1") as any;
    assert.equal((await raw(cluster.url, "POST", CRD_PATH, crd)).code, 201);
    const created = await raw(cluster.url, "POST", at("v1alpha1", "switches"), { apiVersion: `${GROUP}/v1alpha1`, kind: "Switch", metadata: { name: "old" }, spec: { name: "Old" } });
    assert.equal(created.code, 201, created.text);
    const stored = await raw(cluster.url, "GET", `${CRD_PATH}/switches.${GROUP}`);
    crd.metadata.resourceVersion = stored.body.metadata.resourceVersion;
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    const switched = await raw(cluster.url, "PUT", `${CRD_PATH}/switches.${GROUP}`, crd);
    assert.equal(switched.code, 200, switched.text);
    // Still stored at v1alpha1 until rewritten: read at v1 through the webhook.
    assert.equal(cluster.peek({ group: GROUP, plural: "switches" }, "default", "old")!.apiVersion, `${GROUP}/v1alpha1`);
    const v1 = await raw(cluster.url, "GET", at("v1", "switches", "old"));
    assert.equal(v1.code, 200, v1.text);
    assert.equal(v1.body.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(v1.body.spec, { firstName: "Old" });
    // Rewritten (an empty merge patch still writes the object anew at the storage version).
    const relabeled = await raw(cluster.url, "PATCH", at("v1", "switches", "old"), { metadata: { labels: { migrated: "yes" } } }, "application/merge-patch+json");
    assert.equal(relabeled.code, 200, relabeled.text);
    assert.equal(cluster.peek({ group: GROUP, plural: "switches" }, "default", "old")!.apiVersion, `${GROUP}/v1`);
  });

  it("records every storage version in status.storedVersions", async () => {
    const crd = greetingCrd("records", "Record", webhookConversion(hook.url, caBundle), "v1alpha1") as any;
    const created = await raw(cluster.url, "POST", CRD_PATH, crd);
    assert.deepEqual(created.body.status.storedVersions, ["v1alpha1"]);
    crd.metadata.resourceVersion = created.body.metadata.resourceVersion;
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    const switched = await raw(cluster.url, "PUT", `${CRD_PATH}/records.${GROUP}`, crd);
    assert.equal(switched.code, 200, switched.text);
    assert.deepEqual(switched.body.status.storedVersions, ["v1alpha1", "v1"]);
    // A user removes the old version once objects are migrated.
    const trimmed = await raw(cluster.url, "PATCH", `${CRD_PATH}/records.${GROUP}/status`, { status: { storedVersions: ["v1"] } }, "application/merge-patch+json");
    assert.equal(trimmed.code, 200, trimmed.text);
    assert.deepEqual(trimmed.body.status.storedVersions, ["v1"]);
  });

  it("applies injected webhook faults named after the CRD to conversion calls", async () => {
    cluster.injectWebhookFault({ name: `greetings.${GROUP}`, down: true });
    const res = await raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha"));
    assert.equal(res.code, 500);
    assert.match(res.body.message, /^conversion for conv\.example\.com\/v1, Kind=Greeting failed: conversion webhook for \/, Kind= failed: Post "https:\/\/127\.0\.0\.1:\d+\/convert\?timeout=30s": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/);
    assert.equal((await raw(cluster.url, "GET", at("v1alpha1", "greetings", "alpha"))).code, 200, "once");
  });

  it("keeps strategy None as an apiVersion rewrite, without webhook calls, also for objects stored at an older version", async () => {
    const sameSchema = (crd: any) => {
      crd.spec.versions[1].schema = crd.spec.versions[0].schema;
      return crd;
    };
    const crd = sameSchema(greetingCrd("plains", "Plain", { strategy: "None" }, "v1alpha1"));
    assert.equal((await raw(cluster.url, "POST", CRD_PATH, crd)).code, 201);
    const before = hook.state.reviews.length;
    const created = await raw(cluster.url, "POST", at("v1", "plains"), { apiVersion: `${GROUP}/v1`, kind: "Plain", metadata: { name: "p" }, spec: { name: "P" } });
    assert.equal(created.code, 201, created.text);
    assert.equal(created.body.apiVersion, `${GROUP}/v1`);
    assert.equal(cluster.peek({ group: GROUP, plural: "plains" }, "default", "p")!.apiVersion, `${GROUP}/v1alpha1`);
    const stored = await raw(cluster.url, "GET", `${CRD_PATH}/plains.${GROUP}`);
    crd.metadata.resourceVersion = stored.body.metadata.resourceVersion;
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    assert.equal((await raw(cluster.url, "PUT", `${CRD_PATH}/plains.${GROUP}`, crd)).code, 200);
    // Stored at v1alpha1, requested at the new storage version v1: the apiVersion is rewritten.
    const v1 = await raw(cluster.url, "GET", at("v1", "plains", "p"));
    assert.equal(v1.body.apiVersion, `${GROUP}/v1`);
    assert.deepEqual(v1.body.spec, { name: "P" });
    const list = await raw(cluster.url, "GET", at("v1", "plains"));
    assert.deepEqual(list.body.items.map((i: any) => i.apiVersion), [`${GROUP}/v1`]);
    const alpha = await raw(cluster.url, "GET", at("v1alpha1", "plains", "p"));
    assert.equal(alpha.body.apiVersion, `${GROUP}/v1alpha1`);
    assert.equal(hook.state.reviews.length, before);
  });
});
