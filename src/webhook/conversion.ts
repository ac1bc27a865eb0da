/**
 * Conversion webhooks: `ConversionReview` requests answered hub-and-spoke from the registered
 * {@link ConversionOptions}, and {@link checkRoundTrip}, the test helper that proves a
 * conversion loses nothing.
 *
 * @module
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { Logger } from "../log/logger.ts";
import { firstDifference, jsonEqual } from "./json-patch.ts";
import type { ConversionOptions, ConversionRegistration } from "./types.ts";

/**
 * `apiextensions.k8s.io/v1` ConversionRequest.
 *
 * @example
 * ```ts
 * const request: ConversionRequest = { uid: "0000-1111", desiredAPIVersion: "example.com/v1", objects: [] };
 * ```
 */
export interface ConversionRequest {
  uid: string;
  /** `group/version` to convert every object to. */
  desiredAPIVersion: string;
  objects: KubeObject[];
}

/**
 * `apiextensions.k8s.io/v1` ConversionResponse.
 *
 * @example
 * ```ts
 * const response: ConversionResponse = { uid: "0000-1111", convertedObjects: [], result: { status: "Success" } };
 * ```
 */
export interface ConversionResponse {
  uid: string;
  convertedObjects: KubeObject[];
  result: { status: "Success" } | { status: "Failure"; message: string };
}

/**
 * The versions of a conversion: the hub first, then the spokes in their order.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 * declare const toHub: (o: KubeObject) => KubeObject;
 * conversionVersions({ hub: "v1", spokes: { v1alpha1: { toHub, fromHub: toHub } } }); // ["v1", "v1alpha1"]
 * ```
 */
export function conversionVersions(conversion: ConversionOptions): string[] {
  return [conversion.hub, ...Object.keys(conversion.spokes)];
}

/**
 * Checks a {@link ConversionOptions}: a non-empty `hub` that is not also a spoke, at least one
 * spoke, each with `toHub` and `fromHub` functions. Throws a TypeError naming `where` and the
 * fix.
 *
 * @example
 * ```ts
 * import type { ConversionOptions } from "operator-runtime/webhook";
 * declare const conversion: ConversionOptions;
 * checkConversionOptions("mgr.conversion(Greeting)", conversion);
 * ```
 */
export function checkConversionOptions(where: string, conversion: ConversionOptions): void {
  if (typeof conversion !== "object" || conversion === null) throw new TypeError(`${where}: options must be { hub, spokes }, e.g. { hub: "v1", spokes: { v1alpha1: { toHub, fromHub } } }.`);
  if (typeof conversion.hub !== "string" || !/^v\d+((alpha|beta)\d+)?$/.test(conversion.hub)) {
    throw new TypeError(`${where}: hub must be a Kubernetes version name such as "v1" or "v1beta2", got ${JSON.stringify(conversion.hub)}.`);
  }
  if (typeof conversion.spokes !== "object" || conversion.spokes === null) throw new TypeError(`${where}: spokes must be an object of converters by version, e.g. { v1alpha1: { toHub, fromHub } }.`);
  const spokes = Object.keys(conversion.spokes);
  if (spokes.length === 0) throw new TypeError(`${where}: spokes is empty: a conversion needs at least one version besides the hub ${conversion.hub}.`);
  for (const v of spokes) {
    if (v === conversion.hub) throw new TypeError(`${where}: ${v} is the hub and also a spoke. Fix: remove spokes.${v}: the hub is stored as it is.`);
    if (!/^v\d+((alpha|beta)\d+)?$/.test(v)) throw new TypeError(`${where}: spokes.${v}: not a Kubernetes version name (e.g. "v1alpha1").`);
    const c = conversion.spokes[v];
    if (typeof c?.toHub !== "function" || typeof c?.fromHub !== "function") {
      throw new TypeError(`${where}: spokes.${v} must have toHub(obj) and fromHub(obj) functions.`);
    }
  }
}

/**
 * Converts one object to `toVersion` of its group, hub-and-spoke: a spoke goes to the hub with
 * its `toHub`, then from the hub with the target's `fromHub`; the hub is used as it is. Each
 * converter gets a deep copy; the result's `apiVersion` is set to the version reached. Throws
 * an Error naming the object, the versions and the cause when a version is unknown, a
 * converter throws or returns something that is not an object, or the result changes the kind
 * or `metadata` other than labels and annotations (what Kubernetes allows a conversion to
 * change).
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 * import type { ConversionOptions } from "operator-runtime/webhook";
 * declare const conversion: ConversionOptions;
 * declare const old: KubeObject; // example.com/v1alpha1
 * const v1 = convertObject(conversion, old, "v1");
 * ```
 */
export function convertObject(conversion: ConversionOptions, obj: KubeObject, toVersion: string): KubeObject {
  const [group, from] = splitApiVersion(obj.apiVersion);
  const what = `${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ""}${obj.metadata?.name ?? "(unnamed)"}`;
  const known = conversionVersions(conversion);
  for (const v of [from, toVersion]) {
    if (!known.includes(v)) throw new Error(`cannot convert ${what} from ${from} to ${toVersion}: ${v} is neither the hub (${conversion.hub}) nor a spoke (${Object.keys(conversion.spokes).join(", ")}). Fix: add spokes.${v} to the conversion.`);
  }
  if (from === toVersion) return structuredClone(obj);
  const apiVersion = (v: string) => (group ? `${group}/${v}` : v);
  const step = (input: KubeObject, version: string, fn: (o: KubeObject) => KubeObject, name: string): KubeObject => {
    let out: unknown;
    try {
      out = fn(structuredClone(input));
    } catch (err) {
      throw new Error(`cannot convert ${what} from ${from} to ${toVersion}: spokes.${name} threw: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (typeof out !== "object" || out === null || Array.isArray(out)) {
      throw new Error(`cannot convert ${what} from ${from} to ${toVersion}: spokes.${name} returned ${out === null ? "null" : Array.isArray(out) ? "an array" : typeof out}, not the converted object.`);
    }
    return { ...(out as KubeObject), apiVersion: apiVersion(version) };
  };
  let hub = from === conversion.hub ? structuredClone(obj) : step(obj, conversion.hub, conversion.spokes[from]!.toHub, `${from}.toHub`);
  hub = { ...hub, apiVersion: apiVersion(conversion.hub) };
  const out = toVersion === conversion.hub ? hub : step(hub, toVersion, conversion.spokes[toVersion]!.fromHub, `${toVersion}.fromHub`);
  checkConverted(obj, out, `cannot convert ${what} from ${from} to ${toVersion}`);
  return out;
}

/** The result keeps the kind and every metadata field but labels and annotations (as the API server enforces). */
function checkConverted(original: KubeObject, converted: KubeObject, prefix: string): void {
  if (converted.kind !== original.kind) {
    throw new Error(`${prefix}: the converter changed kind to ${JSON.stringify(converted.kind)}; a conversion keeps the kind ${original.kind}.`);
  }
  const strip = (m: unknown) => {
    const { labels: _l, annotations: _a, ...rest } = (typeof m === "object" && m !== null ? m : {}) as Record<string, unknown>;
    return rest;
  };
  const a = strip(original.metadata);
  const b = strip(converted.metadata);
  if (!jsonEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)))) {
    const field = firstDifference(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))) ?? "";
    throw new Error(`${prefix}: the converter changed metadata.${field}; a conversion may change only metadata.labels and metadata.annotations (keep the rest: copy obj.metadata into the result).`);
  }
}

/** `group/version` → [group, version] ("v1" → ["", "v1"]). */
function splitApiVersion(apiVersion: string | undefined): [string, string] {
  const i = typeof apiVersion === "string" ? apiVersion.lastIndexOf("/") : -1;
  return i < 0 ? ["", String(apiVersion)] : [apiVersion!.slice(0, i), apiVersion!.slice(i + 1)];
}

/**
 * Answers one ConversionRequest with the registered conversions: each object is converted by
 * the registration of its group and kind ({@link convertObject}) to `desiredAPIVersion`. The
 * answer is `result: { status: "Success" }` with every converted object in order, or `{ status:
 * "Failure", message }` (no objects) at the first object that cannot be converted — no
 * registration for its group and kind, an unknown version, a converter that throws, or one
 * that changes metadata other than labels and annotations. Failures are logged at error.
 *
 * @example
 * ```ts
 * import type { ConversionRegistration } from "operator-runtime/webhook";
 * declare const registrations: ConversionRegistration[];
 * declare const request: ConversionRequest;
 * const { response } = handleConversion(registrations, request, { logger: log });
 * ```
 */
export function handleConversion(registrations: readonly ConversionRegistration[], request: ConversionRequest, options: { logger?: Logger } = {}): { response: ConversionResponse; result: "converted" | "failed" } {
  const uid = request.uid;
  const [group, version] = splitApiVersion(request.desiredAPIVersion);
  const converted: KubeObject[] = [];
  try {
    for (const obj of request.objects ?? []) {
      if (typeof obj !== "object" || obj === null) throw new Error("request.objects holds something that is not an object");
      const [objGroup] = splitApiVersion(obj.apiVersion);
      if (objGroup !== group) throw new Error(`cannot convert ${obj.kind} from ${obj.apiVersion} to ${request.desiredAPIVersion}: the groups differ`);
      const reg = registrations.find((r) => r.group === group && r.kind === obj.kind);
      if (!reg) throw new Error(`no conversion is registered for kind ${obj.kind} of group ${group}. Fix: mgr.conversion({ apiVersion: "${group}/<hub>", kind: "${obj.kind}" }, { hub, spokes })`);
      converted.push(convertObject(reg.options, obj, version));
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    options.logger?.error("conversion failed", { uid, desiredAPIVersion: request.desiredAPIVersion, error: message });
    return { response: { uid, convertedObjects: [], result: { status: "Failure", message } }, result: "failed" };
  }
  return { response: { uid, convertedObjects: converted, result: { status: "Success" } }, result: "converted" };
}

/**
 * Options of {@link checkRoundTrip}.
 *
 * @example
 * ```ts
 * const options: RoundTripOptions = { versions: ["v1alpha1"] };
 * ```
 */
export interface RoundTripOptions {
  /** The versions to go through (default: every version of the conversion but the object's own). */
  versions?: readonly string[];
}

/**
 * The round-trip test of a conversion, for your own tests: converts `obj` to every other
 * version of `conversion` (hub and spokes) and back, and throws an Error naming the version and
 * the first field that came back different (`round trip v1alpha1 → v1 → v1alpha1 changed
 * spec.name: …`), or any conversion error. Returns nothing when every round trip gives `obj`
 * back. The conversion itself is checked first ({@link checkConversionOptions}).
 *
 * Lossy conversions (a field only the hub has) must keep what they drop somewhere, usually an
 * annotation, to pass: as Kubernetes requires of conversion webhooks.
 *
 * @example
 * ```ts
 * import { checkRoundTrip } from "operator-runtime/webhook";
 * import type { ConversionOptions } from "operator-runtime/webhook";
 * declare const greetingConversion: ConversionOptions;
 *
 * checkRoundTrip(greetingConversion, {
 *   apiVersion: "example.com/v1alpha1", kind: "Greeting",
 *   metadata: { name: "hello", namespace: "default" }, spec: { name: "Ada" },
 * });
 * ```
 */
export function checkRoundTrip(conversion: ConversionOptions, obj: KubeObject, opts: RoundTripOptions = {}): void {
  checkConversionOptions("checkRoundTrip(conversion, obj)", conversion);
  if (typeof obj !== "object" || obj === null || typeof obj.apiVersion !== "string" || typeof obj.kind !== "string") {
    throw new TypeError("checkRoundTrip(conversion, obj): obj must be an object with apiVersion and kind.");
  }
  const [, own] = splitApiVersion(obj.apiVersion);
  const original = JSON.parse(JSON.stringify(obj)) as KubeObject;
  for (const v of opts.versions ?? conversionVersions(conversion)) {
    if (v === own) continue;
    const there = convertObject(conversion, original, v);
    const back = JSON.parse(JSON.stringify(convertObject(conversion, there, own))) as KubeObject;
    const field = firstDifference(original, back);
    if (field !== undefined) {
      const at = (o: unknown) => show(read(o, field));
      throw new Error(`round trip ${own} → ${v} → ${own} changed ${field || "the object"}: ${at(original)} came back as ${at(back)}. Fix: make spokes convert it both ways (keep what a version cannot hold in an annotation).`);
    }
  }
}

/** The value at a {@link firstDifference} path (undefined when absent). */
function read(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const m of path.matchAll(/([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse(m[3]!) as string);
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

function show(v: unknown): string {
  if (v === undefined) return "(absent)";
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
