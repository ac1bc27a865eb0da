/**
 * Terminal reconcile errors: which thrown values are terminal, and how the controller records
 * one on the primary object (a `Ready=False` condition, one Warning event) and holds its key
 * until the object changes.
 */
import type { KubeObject } from "../client/types.ts";
import type { ResourceClient } from "../client/resource-client.ts";
import { writeStatus } from "../client/status-writer.ts";
import { BuilderValidationError, BuilderValidationErrors, ForbiddenError, InvalidError, TerminalError, isNotFound } from "../errors.ts";
import type { EventRecorder } from "../events/event-recorder.ts";
import { describeThrown } from "../log/safe-value.ts";

/** The condition a terminal error sets to False. */
export const TERMINAL_CONDITION_TYPE = "Ready";

/** Longest message written to the condition (the event note is cut shorter by the recorder). */
const MAX_MESSAGE = 4096;

/** Errors marked terminal without changing their type (a Builder child refused as invalid). */
const marked = new WeakSet<object>();
/** Errors already recorded as a Warning event, by the UID of the object the event is about. */
const reported = new WeakMap<object, string>();

/**
 * Marks `err` terminal for {@link isTerminalError} while it keeps its class (an `InvalidError`
 * stays one, for `instanceof` checks). The Builder marks the 422 Invalid answers of its
 * children this way unless `retryInvalid` is set.
 */
export function markTerminal(err: Error): void {
  marked.add(err);
}

/**
 * Notes that a Warning event about the object with `uid` already tells `err` (the Builder's
 * `CreateFailed`/`UpdateFailed`): a terminal error made only of such errors records no second
 * event on that object.
 */
export function markReported(err: Error, uid: string): void {
  reported.set(err, uid);
}

/** AggregateErrors nested deeper than this are not looked into (a cycle cannot loop). */
const MAX_DEPTH = 4;

/** The errors of an AggregateError, or undefined for anything else. Never throws. */
function aggregated(err: unknown): readonly unknown[] | undefined {
  try {
    return err instanceof AggregateError && Array.isArray(err.errors) ? err.errors : undefined;
  } catch {
    return undefined;
  }
}

/** The leaf errors of `err`: itself, or the errors of (nested) AggregateErrors. */
function leaves(err: unknown, depth = 0): unknown[] {
  const inner = depth < MAX_DEPTH ? aggregated(err) : undefined;
  return inner ? inner.flatMap((e) => leaves(e, depth + 1)) : [err];
}

/**
 * Whether a thrown value is terminal: a `TerminalError` (`terminal(err)`, or the Builder's
 * validation errors `BuilderValidationErrors` and `BuilderValidationError`, which extend it), the error of a
 * Builder child the API server refused as invalid (422; see the Builder's `retryInvalid`), or
 * an `AggregateError` whose every error is terminal — such as `new AggregateError(result.errors)`
 * of a Builder pass whose every failure is one of those. The spec that caused them will not
 * fix itself, so retrying is pointless until the object changes. One transient error in an
 * AggregateError makes it retried with backoff. Never throws.
 *
 * @example
 * ```ts
 * import { terminal } from "operator-runtime";
 * import type { BuilderResult } from "operator-runtime";
 *
 * isTerminalError(terminal(new Error("spec.replicas must be odd"))); // true
 * isTerminalError(new Error("connection reset"));                    // false
 * declare const result: BuilderResult;                               // of a Builder pass
 * if (!result.ok) throw new AggregateError(result.errors);          // terminal when result.terminal
 * ```
 */
export function isTerminalError(err: unknown): boolean {
  const all = leaves(err);
  return all.length > 0 && all.every(isTerminalLeaf);
}

function isTerminalLeaf(err: unknown): boolean {
  try {
    return err instanceof TerminalError || (typeof err === "object" && err !== null && marked.has(err));
  } catch {
    return false; // a revoked proxy refuses instanceof
  }
}

/**
 * The CamelCase reason of a terminal error: `InvalidSpec` for validation errors (the Builder's,
 * or the API server's 422 for a child), else `ReconcileFailed`.
 */
function reasonOf(err: unknown): string {
  try {
    const invalid = (e: unknown) => {
      const validation = e instanceof BuilderValidationErrors || e instanceof BuilderValidationError;
      const cause = e instanceof TerminalError && !validation ? e.cause : e;
      return cause instanceof BuilderValidationErrors || cause instanceof BuilderValidationError ||
        (cause instanceof InvalidError && marked.has(cause));
    };
    return leaves(err).every(invalid) ? "InvalidSpec" : "ReconcileFailed";
  } catch {
    return "ReconcileFailed";
  }
}

/** The message of a terminal error; an AggregateError's own message is followed by its errors' (which name the fields). */
function messageOf(err: unknown): string {
  const inner = aggregated(err);
  const own = describeThrown(err, MAX_MESSAGE);
  if (!inner?.length) return own;
  return describeThrown(`${own}: ${leaves(err).map((e) => describeThrown(e, MAX_MESSAGE)).join("; ")}`, MAX_MESSAGE);
}

/** Whether a Warning event about the object with `uid` already tells every error of `err`. */
function alreadyReported(err: unknown, uid: string | undefined): boolean {
  return uid !== undefined && leaves(err).every((e) => typeof e === "object" && e !== null && reported.get(e) === uid);
}

/**
 * Where a controller records terminal errors (see {@link isTerminalError}): a `Ready=False`
 * condition written through `statusClient`, and one Warning event through `recorder`.
 *
 * @example
 * ```ts
 * const options: TerminalErrorOptions = { statusClient: client, recorder };
 * ```
 */
export interface TerminalErrorOptions {
  /** Writes the `Ready=False` condition to the primary's status subresource. */
  statusClient?: Pick<ResourceClient, "patchStatus">;
  /** The condition set to False (default `"Ready"`). */
  conditionType?: string;
  /** Records one Warning event on the primary. */
  recorder?: Pick<EventRecorder, "record">;
}

/**
 * The controller's memory of terminal errors, per key.
 *
 * Expected flow: when a reconcile throws a terminal error, {@link record} writes
 * `Ready=False` (reason `InvalidSpec` or `ReconcileFailed`, the error's message,
 * `observedGeneration`) through `writeStatus` and records one Warning event with the same
 * reason, then holds the key: {@link holds} is true while the primary's resourceVersion is the
 * one it failed on (or the one our own status write produced). Any change to the primary (an
 * edit of its spec, labels, annotations, or another writer's status) releases the key.
 *
 * Guarantees: one condition write and one event per terminal failure of an object version —
 * no event when a Warning event on the primary already tells each of its errors (a Builder's
 * `CreateFailed` for a child the API server refused as invalid, when the Builder has a
 * recorder); the condition's message is the error's, followed by an AggregateError's errors.
 * Our own status write does not wake the key. Errors: the status write's ApiError (the
 * controller then retries with backoff, so the condition is not lost); a primary already gone
 * records nothing.
 */
export class TerminalErrors {
  readonly #options: TerminalErrorOptions;
  readonly #held = new Map<string, ReadonlySet<string>>();

  constructor(options: TerminalErrorOptions) {
    this.#options = options;
  }

  /** Whether `key` is held: its primary (as cached) has not changed since its terminal error. */
  holds(key: string, primary: KubeObject | undefined): boolean {
    const versions = this.#held.get(key);
    if (!versions) return false;
    const rv = primary?.metadata?.resourceVersion;
    if (rv !== undefined && versions.has(rv)) return true;
    this.#held.delete(key);
    return false;
  }

  /** Records a terminal error on `primary` and holds `key` until the primary changes. */
  async record(key: string, primary: KubeObject | undefined, err: unknown): Promise<void> {
    const rv = primary?.metadata?.resourceVersion;
    if (!primary || rv === undefined) return;
    const reason = reasonOf(err);
    const message = messageOf(err) || reason;
    const versions = new Set([rv]);
    const { statusClient, recorder } = this.#options;
    if (statusClient) {
      try {
        const written = await writeStatus(statusClient, primary, {}, {
          conditions: [{ type: this.#options.conditionType ?? TERMINAL_CONDITION_TYPE, status: "False", reason, message }],
        });
        // Held at the version its own write made only when that write was based on the spec the
        // reconcile failed on: a spec edited meanwhile (the write met a conflict and merged into
        // the newer object) must be reconciled.
        const after = written.object.metadata?.resourceVersion;
        if (after !== undefined && written.object.metadata?.generation === primary.metadata?.generation) versions.add(after);
      } catch (writeErr) {
        // A kind without a status subresource, or an object already gone: nothing to write to.
        // No RBAC for the status (403): the Warning event below still tells the user.
        if (!isNotFound(writeErr) && !(writeErr instanceof ForbiddenError)) throw writeErr;
      }
    }
    this.#held.set(key, versions);
    // The Builder's CreateFailed/UpdateFailed Warning already names each error's field: no second event.
    if (recorder && !alreadyReported(err, primary.metadata?.uid)) await recorder.record(primary, { type: "Warning", reason, action: "Reconcile", note: message });
  }
}
