/**
 * CRD conversion by webhook (`spec.conversion.strategy: Webhook`), as apiextensions-apiserver
 * does it: objects not yet at the desired apiVersion are POSTed in a `ConversionReview`, and
 * the answer is checked (review kind, uid, result, count, each object's group/version, kind,
 * name, namespace and uid) before the original metadata is put back, keeping only the labels
 * and annotations the webhook changed.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import type { ConversionWebhook, KubeObject } from "../resource-type.ts";
import { StatusError } from "../status.ts";
import type { StatusBody, StatusCause } from "../status.ts";
import { postReview, webhookTarget, WebhookCallError } from "../admission/webhook-client.ts";
import { validateAnnotations, validateLabels } from "../metadata-validation.ts";

/** The ConversionReview versions LocalCluster speaks, as kube-apiserver (v1 and v1beta1). */
const REVIEW_VERSIONS = ["v1", "v1beta1"] as const;

/** kube-apiserver's conversion webhook client timeout (its URLs carry `?timeout=30s`). */
const CONVERSION_TIMEOUT_MS = 30_000;

/**
 * The most objects one review carries; a longer list is converted in several reviews, one
 * after the other.
 */
export const MAX_OBJECTS_PER_REVIEW = 500;

/** The most JSON one review carries (a webhook server may refuse more: 3 MiB is kube-apiserver's own request limit). */
export const MAX_REVIEW_BODY_BYTES = 2 * 1024 * 1024;

/**
 * A failed conversion: kube-apiserver answers it as an error that is not a Status, i.e.
 * `500` with the message and no `reason`.
 *
 * @example
 * ```ts
 * const err = new ConversionFailure("conversion for example.com/v1, Kind=Greeting failed: …");
 * err.toStatus(); // → { kind: "Status", …, status: "Failure", message: "conversion for …", code: 500 }
 * ```
 */
export class ConversionFailure extends StatusError {
  constructor(message: string) {
    super(500, "", message);
    this.name = "ConversionFailure";
  }

  /** The Status body, without the empty `reason` (Go leaves it out). */
  override toStatus(): StatusBody {
    const body = super.toStatus();
    delete body.reason;
    return body;
  }
}

/** `group/version` split as Go's `schema.ParseGroupVersion`; undefined when it has several slashes. */
function parseGroupVersion(apiVersion: unknown): { group: string; version: string } | undefined {
  if (typeof apiVersion !== "string" || apiVersion === "") return { group: "", version: "" };
  const parts = apiVersion.split("/");
  if (parts.length === 1) return { group: "", version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** Go's `GroupVersion.String()`: `group/version`, `version` for the core group, "" when empty. */
function gvString(apiVersion: unknown): string {
  const gv = parseGroupVersion(apiVersion) ?? { group: "", version: "" };
  if (gv.group === "") return gv.version;
  return `${gv.group}/${gv.version}`;
}

/**
 * Go's `GroupVersionKind.String()` of an object: `example.com/v1, Kind=Greeting`
 * (`/, Kind=` for an object without apiVersion and kind).
 *
 * @example
 * ```ts
 * gvkString({ apiVersion: "example.com/v1", kind: "Greeting" }); // → "example.com/v1, Kind=Greeting"
 * ```
 */
export function gvkString(obj: { apiVersion?: unknown; kind?: unknown } | undefined): string {
  const gv = parseGroupVersion(obj?.apiVersion) ?? { group: "", version: "" };
  const kind = typeof obj?.kind === "string" ? obj.kind : "";
  return `${gv.group}/${gv.version}, Kind=${kind}`;
}

/** The name Go's `%T` prints for a decoded JSON value. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return "[]interface {}";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return "map[string]interface {}";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A field error list as Go's `ToAggregate().Error()`: one message, or `[a, b]`. */
function aggregate(causes: StatusCause[]): string {
  const parts = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ""}` : (c.message ?? ""))))];
  return parts.length === 1 ? parts[0]! : `[${parts.join(", ")}]`;
}

/**
 * Converts objects to `desiredAPIVersion` through the CRD's conversion webhook. Objects
 * already at that version are not sent and come back as they are (the same objects); the
 * others come back as the webhook converted them, with their original metadata apart from
 * labels and annotations. Sends at most {@link MAX_OBJECTS_PER_REVIEW} objects and
 * {@link MAX_REVIEW_BODY_BYTES} per review.
 *
 * @throws {ConversionFailure} (500) when the webhook cannot be reached, answers an error, or
 *   answers something kube-apiserver would refuse, with kube-apiserver's message, e.g.
 *   `conversion for example.com/v1, Kind=Greeting failed: conversion webhook for /, Kind=
 *   failed: expected response.uid="…", got "…"`.
 * @example
 * ```ts
 * import type { ConversionWebhook, KubeObject } from "../resource-type.ts";
 *
 * declare const hook: ConversionWebhook;
 * declare const stored: KubeObject; // apiVersion example.com/v1
 * const [view] = await convertByWebhook(hook, [stored], "example.com/v1alpha1");
 * ```
 */
export async function convertByWebhook(hook: ConversionWebhook, objects: readonly KubeObject[], desiredAPIVersion: string): Promise<KubeObject[]> {
  const out = [...objects];
  const pending: number[] = [];
  objects.forEach((o, i) => {
    if (o.apiVersion !== desiredAPIVersion) pending.push(i);
  });
  for (const indices of batches(pending, objects)) {
    const converted = await reviewOnce(hook, indices.map((i) => objects[i]!), desiredAPIVersion);
    indices.forEach((i, k) => {
      out[i] = converted[k]!;
    });
  }
  return out;
}

/**
 * The pending objects in reviews of at most {@link MAX_OBJECTS_PER_REVIEW} objects and
 * {@link MAX_REVIEW_BODY_BYTES} of JSON (one larger object goes alone), so that a webhook's
 * body limit is never what fails a list.
 */
function batches(pending: readonly number[], objects: readonly KubeObject[]): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  for (const i of pending) {
    const size = JSON.stringify(objects[i]).length;
    if (current.length > 0 && (current.length >= MAX_OBJECTS_PER_REVIEW || bytes + size > MAX_REVIEW_BODY_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(i);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** One ConversionReview round trip for objects that all need converting. */
async function reviewOnce(hook: ConversionWebhook, originals: KubeObject[], desiredAPIVersion: string): Promise<KubeObject[]> {
  // kube-apiserver converts one stored object at a time: its messages name that object's
  // kind, and the webhook client's own (empty) list kind.
  const outer = gvkString(originals[0]);
  const fail = (detail: string) => new ConversionFailure(`conversion for ${outer} failed: ${detail}`);
  const callFailed = (detail: string) => fail(`conversion webhook for /, Kind= failed: ${detail}`);

  const reviewVersion = hook.conversionReviewVersions.find((v): v is (typeof REVIEW_VERSIONS)[number] => (REVIEW_VERSIONS as readonly string[]).includes(v));
  if (!reviewVersion) throw fail("no supported conversion review versions");
  const reviewApiVersion = `apiextensions.k8s.io/${reviewVersion}`;
  const uid = randomUUID();
  const review = {
    kind: "ConversionReview",
    apiVersion: reviewApiVersion,
    request: { uid, desiredAPIVersion, objects: originals },
    // kube-apiserver sends the empty response it decodes the answer into.
    response: { uid: "", convertedObjects: null, result: { metadata: {} } },
  };

  let answer: unknown;
  try {
    answer = hook.post
      ? await hook.post(hook.crdName, hook.clientConfig, review, CONVERSION_TIMEOUT_MS)
      : await postReview(webhookTarget(hook.clientConfig, hook.resolveService), hook.clientConfig.caBundle, review, CONVERSION_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof WebhookCallError) throw callFailed(err.message);
    throw err;
  }

  const body = isObject(answer) ? answer : {};
  if (reviewVersion === "v1") {
    const got = gvkString(body);
    const want = `${reviewApiVersion}, Kind=ConversionReview`;
    if (got !== want) throw callFailed(`expected webhook response of ${want}, got ${got}`);
  }
  const response = body["response"];
  if (!isObject(response)) throw callFailed("no response provided");
  if (reviewVersion === "v1" && response["uid"] !== uid) {
    throw callFailed(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response["uid"] === "string" ? response["uid"] : "")}`);
  }
  const result = isObject(response["result"]) ? response["result"] : {};
  if (result["status"] !== "Success") {
    const message = typeof result["message"] === "string" ? result["message"] : "";
    throw callFailed(message || `response.result.status was '${typeof result["status"] === "string" ? result["status"] : ""}', not 'Success'`);
  }
  const convertedObjects = Array.isArray(response["convertedObjects"]) ? response["convertedObjects"] : [];
  for (const item of convertedObjects) {
    if (!isObject(item)) throw fail(`json: cannot unmarshal ${jsonTypeName(item)} into Go value of type map[string]interface {}`);
    if (typeof item["kind"] !== "string" || item["kind"] === "") throw fail(`Object 'Kind' is missing in '${JSON.stringify(item)}'`);
  }
  if (convertedObjects.length !== originals.length) {
    throw new ConversionFailure(`conversion for ${outer} returned ${convertedObjects.length} objects, expected ${originals.length}`);
  }

  const desiredGV = gvString(desiredAPIVersion);
  return originals.map((original, i) => {
    const converted = convertedObjects[i] as Record<string, unknown>;
    // Worded as kube-apiserver's conversion of this object alone (its index there is always 1).
    const own = gvkString(original);
    const at = `conversion for ${own} returned invalid converted object at index 1`;
    const gotGV = parseGroupVersion(converted["apiVersion"]) ? gvString(converted["apiVersion"]) : "";
    if (gotGV !== desiredGV) throw new ConversionFailure(`${at}: invalid groupVersion (expected ${desiredGV}, received ${gotGV})`);
    if (converted["kind"] !== original.kind) throw new ConversionFailure(`${at}: invalid kind (expected ${original.kind ?? ""}, received ${String(converted["kind"])})`);
    const sameness = identityMismatch(original, converted);
    if (sameness) throw new ConversionFailure(`${at}: ${sameness}`);
    const restored = restoreMetadata(original, converted);
    if (typeof restored === "string") throw new ConversionFailure(`conversion for ${own} returned invalid metadata in object at index 1: ${restored}`);
    return restored;
  });
}

/** Go's `encoding/json` name of a JSON value's type, for its unmarshal errors. */
function jsonTypeName(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}

/** The metadata fields a converted object must keep (validateConvertedObject). */
function identityMismatch(original: KubeObject, converted: Record<string, unknown>): string | undefined {
  const meta = isObject(converted["metadata"]) ? converted["metadata"] : {};
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const checks: [string, unknown, unknown][] = [
    ["name", original.metadata?.name, meta["name"]],
    ["namespace", original.metadata?.namespace, meta["namespace"]],
    ["UID", original.metadata?.uid, meta["uid"]],
  ];
  for (const [what, before, after] of checks) {
    if (str(before) !== str(after)) return `must have the same ${what}: ${str(before)} != ${str(after)}`;
  }
  return undefined;
}

/**
 * The converted object with the original's metadata, apart from the labels and annotations
 * the webhook returned (validated when they changed), or the error message.
 */
function restoreMetadata(original: KubeObject, converted: Record<string, unknown>): KubeObject | string {
  const had = original.metadata !== undefined;
  const has = "metadata" in converted;
  if (!had && !has) return converted as KubeObject;
  if (had && !has) return "missing metadata in converted object";
  const returned = converted["metadata"];
  if (!isObject(returned)) return `invalid metadata of type ${goType(returned)} in converted object`;
  const meta: Record<string, unknown> = had ? structuredClone(original.metadata as Record<string, unknown>) : {};
  for (const field of ["labels", "annotations"] as const) {
    const value = returned[field];
    if (value === undefined || value === null) {
      delete meta[field];
      continue;
    }
    if (!isObject(value)) return `invalid metadata.${field} of type ${goType(value)} in converted object`;
    const before = isObject(meta[field]) ? (meta[field] as Record<string, unknown>) : {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== "string") return `metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const causes = field === "labels" ? validateLabels(value, "metadata.labels") : validateAnnotations(value, "metadata.annotation");
      if (causes.length > 0) return aggregate(causes);
    }
    meta[field] = value;
  }
  return { ...(converted as KubeObject), metadata: meta as KubeObject["metadata"] };
}
