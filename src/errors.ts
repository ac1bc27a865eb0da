/**
 * Typed errors of operator-runtime: one base class, API errors by Kubernetes reason (carrying
 * the `Status`), Builder validation errors that name the field and the fix, and guards.
 */

/** The base of every error this library throws. */
export class OperatorRuntimeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OperatorRuntimeError";
  }
}

/** A Kubernetes `Status` body (the part we read). */
export interface KubeStatus {
  kind?: string;
  apiVersion?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason?: string; type?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

/** An error answered by the API server. `status` is the decoded `Status` body. */
export class ApiError extends OperatorRuntimeError {
  /** HTTP status code. */
  readonly code: number;
  /** Kubernetes reason, e.g. `NotFound`, `Conflict`. */
  readonly reason: string;
  readonly status: KubeStatus;
  /** Request that failed: `verb resource namespace/name`. */
  readonly request: string;

  constructor(code: number, status: KubeStatus, request: string, options?: { cause?: unknown }) {
    super(`${request}: ${code} ${status.reason ?? ""}: ${status.message ?? "no message"}`.replace(/\s+/g, " "), options);
    this.name = "ApiError";
    this.code = code;
    this.reason = status.reason ?? "";
    this.status = status;
    this.request = request;
  }
}

/** 404 NotFound. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** 409 AlreadyExists. */
export class AlreadyExistsError extends ApiError {
  override name = "AlreadyExistsError";
}
/** 409 Conflict (stale resourceVersion, failed precondition, or server-side apply conflict). */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}
/** 422 Invalid, with the per-field causes. */
export class InvalidError extends ApiError {
  override name = "InvalidError";
  /** `details.causes` of the Status. */
  get causes(): { field?: string; message?: string; reason?: string }[] {
    return this.status.details?.causes ?? [];
  }
}
/** 410 Gone/Expired. */
export class GoneError extends ApiError {
  override name = "GoneError";
}
/** 403 Forbidden. */
export class ForbiddenError extends ApiError {
  override name = "ForbiddenError";
}
/** 429 TooManyRequests; `retryAfterSeconds` from the Status or the Retry-After header. */
export class TooManyRequestsError extends ApiError {
  override name = "TooManyRequestsError";
  get retryAfterSeconds(): number | undefined {
    return this.status.details?.retryAfterSeconds;
  }
}
/** 5xx. */
export class ServerError extends ApiError {
  override name = "ServerError";
}

/** The ApiError subclass for a code and reason. */
export function apiErrorFor(code: number, status: KubeStatus, request: string): ApiError {
  if (code === 404) return new NotFoundError(code, status, request);
  if (code === 409 && status.reason === "AlreadyExists") return new AlreadyExistsError(code, status, request);
  if (code === 409) return new ConflictError(code, status, request);
  if (code === 422) return new InvalidError(code, status, request);
  if (code === 410) return new GoneError(code, status, request);
  if (code === 403) return new ForbiddenError(code, status, request);
  if (code === 429) return new TooManyRequestsError(code, status, request);
  if (code >= 500) return new ServerError(code, status, request);
  return new ApiError(code, status, request);
}

/** Whether an error is a 404 from the API server. */
export function isNotFound(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError;
}

/** Whether an error is a 409 Conflict (not AlreadyExists). */
export function isConflict(err: unknown): err is ConflictError {
  return err instanceof ConflictError;
}

/** Returns undefined for a 404, rethrows anything else. */
export function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}

/** An error that must not be retried (a reconcile returning it is not requeued). */
export class TerminalError extends OperatorRuntimeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerminalError";
  }
}

/**
 * Input a Builder (or the per-kind rules it applies) refused, before any API call. The message
 * names the object, the field, what is wrong and how to fix it. Terminal: the same input fails
 * the same way, so a controller does not retry it until the owner changes.
 */
export class BuilderValidationError extends TerminalError {
  /** `Kind/name` of the object (or `Builder` for the builder's own options). */
  readonly object: string;
  /** The field path, e.g. `spec.selector.matchLabels`. */
  readonly field: string;
  readonly problem: string;
  readonly fix: string;

  constructor(object: string, field: string, problem: string, fix: string) {
    super(`${object}: ${field}: ${problem}. Fix: ${fix}`);
    this.name = "BuilderValidationError";
    this.object = object;
    this.field = field;
    this.problem = problem;
    this.fix = fix;
  }
}

/** Several validation problems reported together (the Builder collects misuse and reports it once); terminal. */
export class BuilderValidationErrors extends TerminalError {
  readonly errors: readonly BuilderValidationError[];
  constructor(errors: BuilderValidationError[]) {
    super(errors.length === 1 ? errors[0]!.message : `${errors.length} problems:\n${errors.map((e) => `- ${e.message}`).join("\n")}`);
    this.name = "BuilderValidationErrors";
    this.errors = errors;
  }
}

/**
 * A Builder refused to write an object that already exists and is not controlled by its owner:
 * it belongs to someone else (a user's `kubectl apply`, another controller), and writing over
 * it — then pruning it, or letting garbage collection delete it with the owner — would lose
 * their data. `controller` names its controller owner, if any.
 *
 * An object with no controller can be adopted explicitly: `{ adopt: true }` on the object
 * (`.configMap(obj, { adopt: true })`) or on the Builder (`new Builder({ …, adopt: true })`).
 * An object controlled by another owner is never adopted.
 *
 * @example
 * ```ts
 * import { Builder } from "operator-runtime";
 *
 * const result = await new Builder({ client, owner })
 *   .configMap({ metadata: { name: "app-settings" }, data: { threads: "4" } })
 *   .reconcile();
 * for (const o of result.objects) {
 *   if (o.error instanceof NotOwnedError) console.warn(o.error.message, o.error.controller?.name ?? "no controller");
 * }
 * ```
 */
export class NotOwnedError extends OperatorRuntimeError {
  /** `Kind/namespace/name` of the refused object. */
  readonly object: string;
  /** Its controller owner reference, or undefined when it has none. */
  readonly controller: { apiVersion: string; kind: string; name: string; uid: string } | undefined;

  constructor(object: string, controller: { apiVersion: string; kind: string; name: string; uid: string } | undefined, message: string) {
    super(message);
    this.name = "NotOwnedError";
    this.object = object;
    this.controller = controller;
  }
}

/**
 * A ResourceClient write refused without a request by the write gate of a controller's
 * reconcile: its process no longer leads, or a cache the controller reads is stale. Nothing
 * was sent; the controller runs the reconcile again (held until the caches have caught up,
 * with no backoff, error log or event), so a reconciler can let it propagate.
 *
 * @example
 * ```ts
 * import type { ConfigMap } from "operator-runtime";
 *
 * declare const settings: ConfigMap;
 * try {
 *   await client.apply(settings);
 * } catch (err) {
 *   if (err instanceof WriteRefusedError) throw err; // the controller runs the reconcile again
 *   log.warn("apply failed", { error: err });
 * }
 * ```
 */
export class WriteRefusedError extends OperatorRuntimeError {
  /** Why writes are refused, e.g. "this process no longer leads". */
  readonly why: string;

  constructor(why: string) {
    super(`write refused: ${why}`);
    this.name = "WriteRefusedError";
    this.why = why;
  }
}

/** Wraps an error as terminal: the controller records it and does not retry. */
export function terminal(err: unknown): TerminalError {
  if (err instanceof TerminalError) return err;
  return new TerminalError(err instanceof Error ? err.message : String(err), { cause: err });
}
