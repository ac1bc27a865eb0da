/**
 * Terminal reconcile errors: which thrown values are terminal, and how the controller records
 * one on the primary object (a `Ready=False` condition, one Warning event) and holds its key
 * until the object changes.
 */
import type { KubeObject } from "../client/types.ts";
import type { ResourceClient } from "../client/resource-client.ts";
import { writeStatus } from "../client/status-writer.ts";
import { BuilderValidationError, BuilderValidationErrors, ForbiddenError, TerminalError, isNotFound } from "../errors.ts";
import type { EventRecorder } from "../events/event-recorder.ts";
import { describeThrown } from "../log/safe-value.ts";

/** The condition a terminal error sets to False. */
export const TERMINAL_CONDITION_TYPE = "Ready";

/** Longest message written to the condition (the event note is cut shorter by the recorder). */
const MAX_MESSAGE = 4096;

/**
 * Whether a thrown value is terminal: a `terminal(err)` (`TerminalError`), or the Builder's
 * validation errors (`BuilderValidationErrors`, `BuilderValidationError`) — the spec that caused
 * them will not fix itself, so retrying is pointless until the object changes. Never throws.
 *
 * @example
 * ```ts
 * isTerminalError(terminal(new Error("spec.replicas must be odd"))); // true
 * isTerminalError(new Error("connection reset"));                    // false
 * ```
 */
export function isTerminalError(err: unknown): boolean {
  try {
    return err instanceof TerminalError || err instanceof BuilderValidationErrors || err instanceof BuilderValidationError;
  } catch {
    return false; // a revoked proxy refuses instanceof
  }
}

/** The CamelCase reason of a terminal error: `InvalidSpec` for validation errors, else `ReconcileFailed`. */
function reasonOf(err: unknown): string {
  try {
    const cause = err instanceof TerminalError ? err.cause : err;
    return cause instanceof BuilderValidationErrors || cause instanceof BuilderValidationError ? "InvalidSpec" : "ReconcileFailed";
  } catch {
    return "ReconcileFailed";
  }
}

/**
 * Where a controller records terminal errors (see {@link TerminalErrors}).
 *
 * @example
 * ```ts
 * const options: TerminalErrorOptions = { statusClient: client, recorder };
 * ```
 */
export interface TerminalErrorOptions {
  /** Writes the `Ready=False` condition to the primary's status subresource. */
  statusClient?: Pick<ResourceClient, "patchStatus">;
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
 * Guarantees: one condition write and one event per terminal failure of an object version;
 * our own status write does not wake the key. Errors: the status write's ApiError (the
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
    const message = describeThrown(err, MAX_MESSAGE) || reason;
    const versions = new Set([rv]);
    const { statusClient, recorder } = this.#options;
    if (statusClient) {
      try {
        const written = await writeStatus(statusClient, primary, {}, {
          conditions: [{ type: TERMINAL_CONDITION_TYPE, status: "False", reason, message }],
        });
        const after = written.object.metadata?.resourceVersion;
        if (after !== undefined) versions.add(after);
      } catch (writeErr) {
        // A kind without a status subresource, or an object already gone: nothing to write to.
        // No RBAC for the status (403): the Warning event below still tells the user.
        if (!isNotFound(writeErr) && !(writeErr instanceof ForbiddenError)) throw writeErr;
      }
    }
    this.#held.set(key, versions);
    if (recorder) await recorder.record(primary, { type: "Warning", reason, action: "Reconcile", note: message });
  }
}
