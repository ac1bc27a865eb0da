/**
 * Argument checks for public functions that take objects. A JavaScript caller has no type
 * checker: passing a UID string where an owner object belongs, or an options object missing a
 * field, must fail at once with a `TypeError` naming the function, the parameter, what was
 * expected and what was given — not return a silently wrong answer.
 *
 * Each check is a `typeof` or two, cheap enough for per-object paths. Messages never echo a
 * string argument (it may be a token or a Secret's value), only its type; object keys are
 * shown truncated.
 */

/** How many keys of a wrong object a message lists. */
const MAX_KEYS = 5;
/** How long a listed key may be before it is cut. */
const MAX_KEY_LENGTH = 40;

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * What `value` is, for an error message: its type, an array's length, an object's class and
 * first keys. A string's content is never shown.
 *
 * @example
 * ```ts
 * describeArgument("3f1c9a2e-5b7d-4c1e-8f0a-2b3c4d5e6f70"); // "a string" (never the string itself)
 * describeArgument({ name: "web" }); // "an object with keys name"
 * ```
 */
export function describeArgument(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "undefined": return "undefined";
    case "string": return value === "" ? "an empty string" : "a string";
    case "number": case "bigint": case "boolean": return `a ${typeof value} (${truncate(String(value), 20)})`;
    case "function": return "a function";
    case "symbol": return "a symbol";
  }
  if (Array.isArray(value)) return `an array (length ${value.length})`;
  const proto: unknown = Object.getPrototypeOf(value);
  const cls = proto && proto !== Object.prototype ? (proto as { constructor?: { name?: string } }).constructor?.name : undefined;
  const keys = Object.keys(value as object);
  const listed = keys.slice(0, MAX_KEYS).map((k) => truncate(k, MAX_KEY_LENGTH)).join(", ") + (keys.length > MAX_KEYS ? ", …" : "");
  return `${cls ? `a ${cls}` : "an object"} ${keys.length ? `with keys ${listed}` : "with no keys"}`;
}

/**
 * The uniform `TypeError`: `<where>: <param> must be <expected>, got <what>[. <hint>]`.
 * `where` is the call as documented, e.g. `"isControlledBy(obj, owner)"` or
 * `"new ResourceClient(options)"`; `param` may be a path (`"options.client"`).
 *
 * @example
 * ```ts
 * function keyOf(request: { name: string; namespace?: string }): string {
 *   if (typeof request?.name !== "string") throw argumentError("keyOf(request)", "request", "a Request ({ name, namespace? })", request);
 *   return request.namespace ? `${request.namespace}/${request.name}` : request.name;
 * }
 * // keyOf("web" as never) throws TypeError: keyOf(request): request must be a Request ({ name, namespace? }), got a string
 * ```
 */
export function argumentError(where: string, param: string, expected: string, value: unknown, hint?: string): TypeError {
  return new TypeError(`${where}: ${param} must be ${expected}, got ${describeArgument(value)}${hint ? `. ${hint}` : ""}`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Throws unless `value` is a non-array object (a plain object or a class instance).
 *
 * @example
 * ```ts
 * function createLogger(options: { name: string }): void {
 *   checkObject("createLogger(options)", "options", options, "an options object");
 * }
 * ```
 */
export function checkObject(where: string, param: string, value: unknown, expected = "an object", hint?: string): void {
  if (!isObject(value)) throw argumentError(where, param, expected, value, hint);
}

/**
 * Like {@link checkObject}, but `undefined` (an omitted optional parameter) passes too.
 *
 * @example
 * ```ts
 * function tokenBucketRateLimiter(options?: { qps?: number; burst?: number }): void {
 *   checkOptionalObject("tokenBucketRateLimiter(options)", "options", options, "an options object");
 * }
 * ```
 */
export function checkOptionalObject(where: string, param: string, value: unknown, expected = "an object", hint?: string): void {
  if (value !== undefined && !isObject(value)) throw argumentError(where, param, expected, value, hint);
}

/**
 * Throws unless `value` is a Kubernetes object: an object with a `metadata` object.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 *
 * function record(regarding: KubeObject, note: string): void {
 *   checkKubeObject("EventRecorder.record(regarding, event)", "regarding", regarding);
 * }
 * ```
 */
export function checkKubeObject(where: string, param: string, value: unknown, hint?: string): void {
  if (isObject(value) && isObject(value.metadata)) return;
  const expected = "a Kubernetes object (with metadata)";
  if (isObject(value)) throw new TypeError(`${where}: ${param} must be ${expected}, got ${describeArgument(value)} but no metadata${hint ? `. ${hint}` : ""}`);
  throw argumentError(where, param, expected, value, hint);
}

/**
 * Throws unless `value` is an owner as read from the API server: a Kubernetes object whose
 * `metadata.uid` is a non-empty string (an owner without a UID was never created, and
 * comparing by its missing UID answers wrongly).
 *
 * @example
 * ```ts
 * import type { KubeObject } from "operator-runtime";
 *
 * function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
 *   checkOwner("isControlledBy(obj, owner)", "owner", owner, "Since 0.1, pass the owner object, not its UID");
 *   return (obj.metadata?.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === owner.metadata?.uid);
 * }
 * ```
 */
export function checkOwner(where: string, param: string, value: unknown, hint?: string): void {
  const metadata = isObject(value) ? value.metadata : undefined;
  if (isObject(metadata) && typeof metadata.uid === "string" && metadata.uid !== "") return;
  const expected = "a Kubernetes object (with metadata.uid)";
  if (isObject(value)) {
    const lacks = isObject(metadata) ? "metadata.uid (pass the owner as read from the API server)" : "metadata";
    throw new TypeError(`${where}: ${param} must be ${expected}, got ${describeArgument(value)} but no ${lacks}${hint ? `. ${hint}` : ""}`);
  }
  throw argumentError(where, param, expected, value, hint);
}

/**
 * Throws unless `value` is an array (of whatever `expected` names).
 *
 * @example
 * ```ts
 * function resourceResolver(crds: readonly object[]): void {
 *   checkArray("resourceResolver(crds)", "crds", crds, "an array of CustomResourceDefinitions");
 * }
 * ```
 */
export function checkArray(where: string, param: string, value: unknown, expected: string, hint?: string): void {
  if (!Array.isArray(value)) throw argumentError(where, param, expected, value, hint);
}

/**
 * Throws unless `value` is a kind reference: an object whose `apiVersion` and `kind` are
 * non-empty strings (a kind handle such as `Deployment`, or `{ apiVersion, kind }`).
 *
 * @example
 * ```ts
 * function defineKind(ref: { apiVersion: string; kind: string }): void {
 *   checkKindRef("defineKind(ref)", "ref", ref);
 * }
 * defineKind({ apiVersion: "example.com/v1", kind: "" });
 * // → TypeError: defineKind(ref): ref must be a kind ({ apiVersion, kind }, …), got an object with keys apiVersion, kind but no kind
 * ```
 */
export function checkKindRef(where: string, param: string, value: unknown, hint?: string): void {
  if (isObject(value) && typeof value.apiVersion === "string" && value.apiVersion !== "" && typeof value.kind === "string" && value.kind !== "") return;
  const expected = 'a kind ({ apiVersion, kind }, e.g. { apiVersion: "apps/v1", kind: "Deployment" })';
  if (isObject(value)) {
    const lacks = typeof value.apiVersion === "string" && value.apiVersion !== "" ? "kind" : "apiVersion";
    throw new TypeError(`${where}: ${param} must be ${expected}, got ${describeArgument(value)} but no ${lacks}${hint ? `. ${hint}` : ""}`);
  }
  throw argumentError(where, param, expected, value, hint);
}
