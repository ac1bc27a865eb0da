/**
 * Kubernetes `Status` error bodies, as the API server sends them.
 *
 * Every failing request inside LocalCluster throws a {@link StatusError}; the HTTP layer turns
 * it into the JSON body and code a real kube-apiserver would return.
 */
import { InvalidSelectorError } from "../util/selector-error.ts";

/** One entry of `details.causes` in a Status body. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** `details` of a Status body. `kind` is the resource plural for most errors, the Kind for 422. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The Kubernetes `Status` object (`kind: Status, apiVersion: v1`). */
export interface StatusBody {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, unknown>;
  status: "Failure" | "Success";
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** An error that the server answers with a Status body and HTTP code. */
export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.name = "StatusError";
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  /** The JSON body sent on the wire. */
  toStatus(): StatusBody {
    const body: StatusBody = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

/** `{resource}.{group}` or just `{resource}` for the core group, as used in messages. */
export function qualifiedResource(resource: string, group: string): string {
  return group === "" ? resource : `${resource}.${group}`;
}

/** 400 BadRequest. */
export function badRequest(message: string): StatusError {
  return new StatusError(400, "BadRequest", message);
}

/**
 * Runs a selector parse, answering an {@link InvalidSelectorError} as the 400 BadRequest
 * kube-apiserver sends (its `problem`, word for word).
 *
 * @example
 * ```ts
 * import { parseLabelSelector } from "operator-runtime/cache";
 *
 * const query = new URLSearchParams({ labelSelector: "app in (web" });
 * const selector = selectorBadRequest(() => parseLabelSelector(query.get("labelSelector") ?? ""));
 * // → throws 400 BadRequest: unable to parse requirement: found '', expected: ',' or ')'
 * ```
 */
export function selectorBadRequest<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw err instanceof InvalidSelectorError ? badRequest(err.problem) : err;
  }
}

/** 404 NotFound: `configmaps "x" not found`. */
export function notFound(resource: string, group: string, name: string): StatusError {
  return new StatusError(404, "NotFound", `${qualifiedResource(resource, group)} "${name}" not found`, {
    name,
    group: group || undefined,
    kind: resource,
  });
}

/** 409 AlreadyExists. */
export function alreadyExists(resource: string, group: string, name: string): StatusError {
  return new StatusError(409, "AlreadyExists", `${qualifiedResource(resource, group)} "${name}" already exists`, {
    name,
    group: group || undefined,
    kind: resource,
  });
}

/** 409 Conflict for a stale resourceVersion (or a custom message, e.g. a precondition). */
export function conflict(resource: string, group: string, name: string, message?: string, causes?: StatusCause[]): StatusError {
  const text =
    message ??
    "the object has been modified; please apply your changes to the latest version and try again";
  return new StatusError(409, "Conflict", `Operation cannot be fulfilled on ${qualifiedResource(resource, group)} "${name}": ${text}`, {
    name,
    group: group || undefined,
    kind: resource,
    ...(causes ? { causes } : {}),
  });
}

/** 410 Expired: `too old resource version: 5 (120)`. */
export function expired(message: string): StatusError {
  return new StatusError(410, "Expired", message);
}

/** 405 MethodNotAllowed. */
export function methodNotAllowed(): StatusError {
  return new StatusError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
}

/** 415 UnsupportedMediaType. */
export function unsupportedMediaType(message: string): StatusError {
  return new StatusError(415, "UnsupportedMediaType", message);
}

/**
 * 422 Invalid: `Widget.example.com "foo" is invalid: spec.size: Invalid value: ...`.
 * `kind` is the Kind (not the plural), `group` may be "". As apimachinery's `NewInvalid`, every
 * cause is listed in `details.causes`, but the message names each distinct `field: message`
 * once (an update that trips the same metadata rule in two validation passes gets two causes
 * and one line), and an empty `name` is left out of `details`.
 */
export function invalid(kind: string, group: string, name: string, causes: StatusCause[]): StatusError {
  const qualifiedKind = group === "" ? kind : `${kind}.${group}`;
  const parts = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message ?? ""}` : (c.message ?? ""))))];
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  return new StatusError(422, "Invalid", `${qualifiedKind} "${name}" is invalid: ${summary}`, {
    ...(name ? { name } : {}),
    group: group || undefined,
    kind,
    causes,
  });
}

/**
 * 422 for invalid request options (`CreateOptions`, `UpdateOptions`, `PatchOptions`,
 * `DeleteOptions`), as kube-apiserver's handlers answer them: `DeleteOptions.meta.k8s.io ""
 * is invalid: propagationPolicy: Unsupported value: …`.
 */
export function invalidOptions(kind: "CreateOptions" | "UpdateOptions" | "PatchOptions" | "DeleteOptions", causes: StatusCause[]): StatusError {
  return invalid(kind, "meta.k8s.io", "", causes);
}

/** A `[]string` as Go's `%#v` prints it: `[]string{"a", "b"}` (`[]string(nil)` for none). */
export function goStringSlice(values: readonly string[] | undefined): string {
  if (values === undefined) return "[]string(nil)";
  return `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/** A cause helper: `Invalid value: <json>: <detail>` (reason FieldValueInvalid). */
export function invalidValue(field: string, value: unknown, detail: string): StatusCause {
  return { reason: "FieldValueInvalid", field, message: `Invalid value: ${formatValue(value)}: ${detail}` };
}

/** A cause helper: `Required value` (reason FieldValueRequired). */
export function requiredValue(field: string, detail?: string): StatusCause {
  return { reason: "FieldValueRequired", field, message: detail ? `Required value: ${detail}` : "Required value" };
}

/** A cause helper: `Unsupported value: "x": supported values: "a", "b"` (reason FieldValueNotSupported). */
export function unsupportedValue(field: string, value: unknown, supported: unknown[]): StatusCause {
  return {
    reason: "FieldValueNotSupported",
    field,
    message: `Unsupported value: ${formatValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(", ")}`,
  };
}

/** A cause helper: `Forbidden: <detail>` (reason FieldValueForbidden). */
export function forbidden(field: string, detail: string): StatusCause {
  return { reason: "FieldValueForbidden", field, message: `Forbidden: ${detail}` };
}

/** Go-like rendering of a value inside an `Invalid value:` message. */
export function formatValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === null || value === undefined) return "null";
  if (typeof value === "object") return `"${Array.isArray(value) ? "array" : "object"}"`;
  return String(value);
}
