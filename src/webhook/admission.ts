/**
 * The handler of one admission webhook: an `AdmissionRequest` in, an `AdmissionResponse` out,
 * calling the registration's `default` (mutating) or `validate` (validating) handler.
 *
 * @module
 */
import type { KubeObject } from "../kinds/kube-object.ts";
import type { Logger } from "../log/logger.ts";
import type { Clock } from "../util/clock.ts";
import { realClock } from "../util/clock.ts";
import { jsonPatch } from "./json-patch.ts";
import type { AdmissionContext, AdmissionRegistration, AdmissionRequest, FieldError, ValidationOutcome } from "./types.ts";

/**
 * A `metav1.Status` as an admission response carries it (`response.status`).
 *
 * @example
 * ```ts
 * const status: AdmissionStatus = { status: "Failure", code: 403, reason: "Forbidden", message: "spec.name is required" };
 * ```
 */
export interface AdmissionStatus {
  status?: "Success" | "Failure";
  code?: number;
  reason?: string;
  message?: string;
  details?: { causes?: { reason: string; field: string; message: string }[] };
}

/**
 * `admission.k8s.io/v1` AdmissionResponse, as the server answers it.
 *
 * @example
 * ```ts
 * const response: AdmissionResponse = { uid: "705ab4f5-6393-11e8-b7cc-42010a800002", allowed: true, warnings: ["spec.size is deprecated"] };
 * ```
 */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: AdmissionStatus;
  patchType?: "JSONPatch";
  /** Base64 of the RFC 6902 JSON Patch. */
  patch?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/**
 * How a request ended, for metrics: `allowed`, `denied` by the handler, or `errored` (the
 * handler threw, timed out, or returned something that is not an answer).
 *
 * @example
 * ```ts
 * const result: AdmissionResult = "denied";
 * ```
 */
export type AdmissionResult = "allowed" | "denied" | "errored";

/**
 * Options of {@link handleAdmission}.
 *
 * @example
 * ```ts
 * const options: HandleAdmissionOptions = { logger: log, signal };
 * ```
 */
export interface HandleAdmissionOptions {
  /** Aborts the handler's `ctx.signal` early (the server stops, the API server hung up). */
  signal?: AbortSignal;
  /** Logs one info line per denial, one error line per failed handler. Default: none. */
  logger?: Logger;
  /** Timers of the timeout (tests inject a manual clock). Default: the real clock. */
  clock?: Clock;
}

/**
 * Allows the request, with optional warnings (shown by kubectl as `Warning: …`).
 *
 * @example
 * ```ts
 * mgr.webhook(Greeting, {
 *   validate: (g) => (g.spec?.name === "" ? allow(["spec.name is empty: the greeting says hello to nobody"]) : allow()),
 * });
 * ```
 */
export function allow(warnings?: readonly string[]): ValidationOutcome {
  return warnings && warnings.length ? { allowed: true, warnings: [...warnings] } : { allowed: true };
}

/**
 * Denies the request with `message` (shown as `admission webhook "…" denied the request:
 * <message>`), optional field errors (`status.details.causes`) and an HTTP code (default 403).
 *
 * @example
 * ```ts
 * mgr.webhook(Greeting, {
 *   validate: (g) => g.spec?.name && g.spec.surname
 *     ? deny("set exactly one of spec.name and spec.surname", [{ field: "spec.surname", message: "must be unset when spec.name is set", reason: "FieldValueForbidden" }], 422)
 *     : undefined,
 * });
 * ```
 */
export function deny(message: string, causes?: readonly FieldError[], code?: number): ValidationOutcome {
  return { allowed: false, message, ...(causes && causes.length ? { causes: [...causes] } : {}), ...(code !== undefined ? { code } : {}) };
}

/**
 * Default `timeoutSeconds` of a webhook (kube-apiserver's default too): the handler's
 * `ctx.signal` aborts after it.
 *
 * @example
 * ```ts
 * mgr.webhook(Greeting, { validate: () => undefined, timeoutSeconds: DEFAULT_TIMEOUT_SECONDS / 2 });
 * ```
 */
export const DEFAULT_TIMEOUT_SECONDS = 10;

/**
 * How long a handler may run: the webhook's `timeoutSeconds` less a tenth of it (at least
 * 100 ms, at most 1 s), so that the denial of a handler that runs late reaches the API server
 * before it gives up on the call — its `failurePolicy: Ignore` would otherwise admit the object.
 */
function handlerDeadlineMs(timeoutSeconds: number): number {
  const ms = timeoutSeconds * 1000;
  return ms - Math.min(1000, Math.max(100, Math.round(ms / 10)));
}

/**
 * Answers one AdmissionRequest with the handler of `reg`. The handler always gets a
 * `structuredClone` of the object: what it does to it never reaches the caller's copy.
 *
 * - The object: `request.object`, except on DELETE where it is `request.oldObject` (the object
 *   being deleted; `request.object` is null then). `oldObj` is `request.oldObject` on UPDATE
 *   and DELETE, undefined otherwise. Objects are decoded as sent: with `matchPolicy:
 *   Equivalent` the API server may send another version of the kind than the one registered
 *   (`request.kind` says which); the handler sees that version's fields.
 * - Mutating: `default(obj, ctx)` returns the object to store (or mutates `obj` and returns
 *   nothing); the answer is `allowed` with `patchType: "JSONPatch"` and the base64 RFC 6902
 *   patch from the received object to it, or no patch when nothing changed. On DELETE there is
 *   nothing to patch: the result is ignored (the request is allowed unless the handler fails).
 * - Validating: `validate(obj, oldObj, ctx)` returns nothing (allowed), {@link allow}`(warnings)`
 *   or {@link deny}`(message, causes, code)`: a denial answers `allowed: false` with `status:
 *   { status: "Failure", code, reason, message, details: { causes } }`, reason `Forbidden` for
 *   403, `Invalid` for 422, `BadRequest` for 400, else `Forbidden`.
 * - An operation outside the registration's `operations` is allowed without calling anything.
 * - A handler that throws (or rejects) is a **denial**, code 500, reason `InternalError`, with
 *   the error's message: the webhook decides, not the configuration's `failurePolicy` (an
 *   `Ignore` policy would otherwise let a broken handler admit anything). A handler still
 *   running shortly before the webhook's `timeoutSeconds` (default 10; a tenth of it earlier, at
 *   least 100 ms and at most 1 s) is denied with code 504, reason `Timeout`, and its
 *   `ctx.signal` aborts; what it returns afterwards is dropped. The margin lets the denial reach
 *   the API server before it stops waiting, so `failurePolicy` does not decide.
 * - dryRun, userInfo, the operation, name, namespace and subresource are in `ctx`.
 *
 * Logs one info line per denial and one error line per failed handler.
 *
 * @example
 * ```ts
 * import type { AdmissionRegistration, AdmissionRequest } from "operator-runtime/webhook";
 * declare const reg: AdmissionRegistration;
 * declare const request: AdmissionRequest;
 * const { response, result } = await handleAdmission(reg, request, { logger: log });
 * ```
 */
export async function handleAdmission(reg: AdmissionRegistration, request: AdmissionRequest, options: HandleAdmissionOptions = {}): Promise<{ response: AdmissionResponse; result: AdmissionResult }> {
  const uid = request.uid;
  const log = options.logger;
  const fields = { webhook: reg.name, path: reg.path, uid, operation: request.operation, namespace: request.namespace ?? "", name: request.name ?? "" };
  if (!reg.operations.includes(request.operation)) return { response: { uid, allowed: true }, result: "allowed" };
  const deleting = request.operation === "DELETE";
  const received = (deleting ? request.oldObject : request.object) ?? undefined;
  const timeoutSeconds = reg.options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const deadlineMs = handlerDeadlineMs(timeoutSeconds);
  const clock = options.clock ?? realClock;
  const abort = new AbortController();
  let timedOut!: () => void;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timedOut = () => resolve(TIMED_OUT)));
  const timer = clock.setTimeout(() => {
    abort.abort(new DOMException(`the webhook's deadline (${deadlineMs / 1000} s of timeoutSeconds ${timeoutSeconds} s) passed`, "TimeoutError"));
    timedOut();
  }, deadlineMs);
  const stopFollowing = follow(options.signal, abort);
  const ctx: AdmissionContext = {
    operation: request.operation, dryRun: request.dryRun === true, userInfo: request.userInfo ?? {},
    namespace: request.namespace ?? "", name: request.name ?? "", subResource: request.subResource ?? "",
    signal: abort.signal, request,
  };
  const fail = (code: number, reason: string, message: string, error?: unknown) => {
    log?.error("admission webhook handler failed: denied the request", { ...fields, code, error: error ?? message });
    return { response: { uid, allowed: false, status: { status: "Failure" as const, code, reason, message } }, result: "errored" as const };
  };
  try {
    const obj = received === undefined ? undefined : structuredClone(received);
    const run = reg.type === "mutating"
      ? Promise.resolve().then(() => (obj === undefined ? undefined : reg.options.default!(obj, ctx)))
      : Promise.resolve().then(() => reg.options.validate!(obj as KubeObject, request.oldObject ? structuredClone(request.oldObject) : undefined, ctx));
    let answer: unknown;
    try {
      answer = await Promise.race([run, timeout]);
    } catch (err) {
      return fail(500, "InternalError", errorMessage(err), err);
    }
    if (answer === TIMED_OUT) {
      void run.catch(() => undefined);
      return fail(504, "Timeout", `the webhook handler did not answer within ${deadlineMs / 1000} s (timeoutSeconds ${timeoutSeconds} s, less a margin for the answer to reach the API server); its signal was aborted`);
    }
    if (reg.type === "mutating") {
      if (deleting || received === undefined) return { response: { uid, allowed: true }, result: "allowed" };
      if (answer !== undefined && (typeof answer !== "object" || answer === null || Array.isArray(answer))) {
        return fail(500, "InternalError", `default must return the object (or nothing, after changing it in place), got ${answer === null ? "null" : Array.isArray(answer) ? "an array" : typeof answer}`);
      }
      const after = JSON.parse(JSON.stringify(answer ?? obj)) as unknown;
      const before = JSON.parse(JSON.stringify(received)) as unknown;
      const ops = jsonPatch(before, after);
      if (ops.length === 0) return { response: { uid, allowed: true }, result: "allowed" };
      return { response: { uid, allowed: true, patchType: "JSONPatch", patch: Buffer.from(JSON.stringify(ops)).toString("base64") }, result: "allowed" };
    }
    if (answer === undefined) return { response: { uid, allowed: true }, result: "allowed" };
    const outcome = answer as Partial<ValidationOutcome> | null;
    if (typeof outcome !== "object" || outcome === null || typeof outcome.allowed !== "boolean") {
      return fail(500, "InternalError", "validate must return nothing, allow(warnings) or deny(message, causes), got " + describe(answer));
    }
    const warnings = outcome.warnings && outcome.warnings.length ? { warnings: [...outcome.warnings].map(String) } : {};
    if (outcome.allowed) return { response: { uid, allowed: true, ...warnings }, result: "allowed" };
    const denial = outcome as Extract<ValidationOutcome, { allowed: false }>;
    const code = Number.isInteger(denial.code) && denial.code! >= 400 && denial.code! < 600 ? denial.code! : 403;
    const message = typeof denial.message === "string" && denial.message ? denial.message : "denied";
    const causes = (denial.causes ?? []).map((c) => ({ reason: c.reason ?? "FieldValueInvalid", field: c.field, message: c.message }));
    log?.info("admission webhook denied the request", { ...fields, code, message, ...(causes.length ? { causes } : {}) });
    return {
      response: {
        uid, allowed: false, ...warnings,
        status: { status: "Failure", code, reason: reasonFor(code), message, ...(causes.length ? { details: { causes } } : {}) },
      },
      result: "denied",
    };
  } finally {
    clock.clearTimeout(timer);
    stopFollowing();
  }
}

const TIMED_OUT: unique symbol = Symbol("timed out");

/** The `metav1.StatusReason` of a denial's code. */
function reasonFor(code: number): string {
  switch (code) {
    case 400: return "BadRequest";
    case 401: return "Unauthorized";
    case 404: return "NotFound";
    case 409: return "Conflict";
    case 422: return "Invalid";
    case 429: return "TooManyRequests";
    case 500: return "InternalError";
    case 503: return "ServiceUnavailable";
    case 504: return "Timeout";
    default: return "Forbidden";
  }
}

/** Aborts `abort` when `signal` does; returns the unsubscribe. */
function follow(signal: AbortSignal | undefined, abort: AbortController): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    abort.abort(signal.reason);
    return () => undefined;
  }
  const onAbort = () => abort.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === "string" ? err : describe(err);
}

function describe(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
