/** Writes a primary's status (with observedGeneration and conditions) only when it would change. */
import { ConflictError, OperatorRuntimeError } from "../errors.ts";
import { setCondition } from "./conditions.ts";
import type { Condition } from "./conditions.ts";
import type { ResourceClient } from "./resource-client.ts";
import type { KubeObject } from "./types.ts";
import { canonicalJson } from "../util/canonical-json.ts";
import { mergePatch } from "../util/merge-patch.ts";
import { argumentError, checkKubeObject, checkObject } from "../util/check-args.ts";

/**
 * The status type of an object type: a custom resource's declared `Status`
 * (`defineKind<Spec, Status>`), a built-in kind's model status, else any JSON object.
 *
 * @example
 * ```ts
 * import { defineKind } from "operator-runtime";
 * import type { ObjectOf } from "operator-runtime/client";
 *
 * const Greeting = defineKind<{ name: string }, { message?: string }>({ apiVersion: "example.com/v1", kind: "Greeting" });
 * type S = StatusOf<ObjectOf<typeof Greeting>>; // { message?: string }
 * ```
 */
export type StatusOf<T> = T extends { status?: infer S }
  ? unknown extends S ? Record<string, unknown> : S extends object ? S : Record<string, unknown>
  : Record<string, unknown>;

/**
 * What {@link writeStatus} takes: some of the status fields, each a value or `null` to remove
 * it (merge-patch semantics). A misspelt field of a typed status is a compile error.
 *
 * @example
 * ```ts
 * const patch: StatusPatch<Greeting> = { message: null }; // clears status.message
 * await writeStatus(client, owner, patch);
 * ```
 */
export type StatusPatch<T> = { [K in keyof StatusOf<T>]?: StatusOf<T>[K] | null };

/**
 * Options of {@link writeStatus}.
 *
 * @example
 * ```ts
 * const opts: WriteStatusOptions = { conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }] };
 * ```
 */
export interface WriteStatusOptions {
  /** Conditions to set (see {@link setCondition}); `observedGeneration` defaults to the owner's generation. */
  conditions?: Omit<Condition, "lastTransitionTime">[];
  /** Clock for lastTransitionTime (default: now). */
  now?: Date;
  /** Field manager of the patch (default: the client's). */
  fieldManager?: string;
}

/**
 * What {@link writeStatus} did: `written` is false when the live status already matched.
 *
 * @example
 * ```ts
 * const { written, object } = await writeStatus(client, owner, { message: "Hello, Ada" });
 * if (written) console.log("status now", object.status);
 * ```
 */
export interface StatusWriteResult<T extends KubeObject = KubeObject> {
  written: boolean;
  /**
   * The object the server answered after the write; when nothing was written, the given owner
   * (or the object read after a conflict, which already had the status).
   */
  object: T;
  /** The status that was (or would have been) sent. */
  status: Record<string, unknown>;
}

/** How many times {@link writeStatus} reads the object again after a conflicting conditions write. */
const CONFLICT_ATTEMPTS = 4;

/**
 * Merges `observedGeneration: owner.metadata.generation` (and the given conditions) into
 * `status` and writes it to the owner's `/status` with a JSON merge patch — unless applying
 * that patch to the owner's current `status` would change nothing (compared canonically, key
 * order ignored), in which case no request is made.
 *
 * Assumptions: `owner` is the object as last read (from the cache or the API); its `status` is
 * what the comparison runs against. The kind has a status subresource.
 *
 * Guarantees: `opts.conditions` are set by type in the list as the server holds it: conditions
 * of other types, and their lastTransitionTime, are never lost — even when `owner` is older than
 * the live object (a cache that has not seen another writer's status yet). Since a merge patch
 * replaces a list whole, the write is conditional on `owner`'s resourceVersion; on a conflict,
 * with a client that can also `get` (a `ResourceClient`), it reads the object, sets the
 * conditions in its list again and retries (up to 4 writes). `observedGeneration` (the status's
 * and the conditions') stays `owner`'s generation: the one the status was computed from.
 *
 * Caveats: merge-patch semantics — fields absent from `status` are kept, send `null` to remove
 * one; a `status.conditions` passed in `status` replaces the list whole, unconditionally.
 * Conditions whose status did not change keep their lastTransitionTime, so an unchanged
 * reconcile writes nothing.
 * Errors: typed ApiError from the patch (NotFoundError when the owner is gone; ConflictError
 * when the conditions write kept conflicting, or conflicted with a client that has no `get`);
 * OperatorRuntimeError when the owner lacks apiVersion, kind or name, or a condition is invalid.
 *
 * @example
 * ```ts
 * import { writeStatus } from "operator-runtime";
 *
 * const result = await writeStatus(client, owner, { message: "Hello, Ada", observedGeneration: owner.metadata?.generation }, {
 *   conditions: [{ type: "Ready", status: "True", reason: "Reconciled", message: "3/3 ready" }],
 * });
 * if (!result.written) console.log("status already up to date");
 * ```
 */
export async function writeStatus<T extends KubeObject = KubeObject>(
  client: Pick<ResourceClient, "patchStatus"> & Partial<Pick<ResourceClient, "get">>,
  owner: T,
  status: StatusPatch<T>,
  opts: WriteStatusOptions = {},
): Promise<StatusWriteResult<T>> {
  const where = "writeStatus(client, owner, status, opts)";
  if (typeof (client as Partial<typeof client> | null | undefined)?.patchStatus !== "function") throw argumentError(where, "client", "a ResourceClient", client);
  checkKubeObject(where, "owner", owner);
  checkObject(where, "status", status, "a status patch object");
  checkObject(where, "opts", opts, "an options object");
  const { apiVersion, kind } = owner;
  const name = owner.metadata?.name;
  if (!apiVersion || !kind || !name) {
    throw new OperatorRuntimeError(`writeStatus: the owner needs apiVersion, kind and metadata.name (got ${kind ?? "?"} "${name ?? ""}"). Fix: pass the object as read from the API.`);
  }
  const ref = { apiVersion, kind, name, ...(owner.metadata?.namespace ? { namespace: owner.metadata.namespace } : {}) };
  const generation = owner.metadata?.generation;
  // A list computed from the owner's replaces the server's whole: only on the version it came from.
  const merging = (opts.conditions?.length ?? 0) > 0 && !Array.isArray((status as Record<string, unknown>).conditions);
  const patchOpts = opts.fieldManager ? { fieldManager: opts.fieldManager } : {};
  let base: T = owner;
  for (let attempt = 1; ; attempt++) {
    const live = isObject(base.status) ? base.status : {};
    const desired = desiredStatus(live, status as Record<string, unknown>, generation, opts);
    if (canonicalJson(mergePatch(live, desired)) === canonicalJson(live)) {
      return { written: false, object: base, status: desired };
    }
    const resourceVersion = merging ? base.metadata?.resourceVersion : undefined;
    const body = resourceVersion ? { metadata: { resourceVersion }, status: desired } : { status: desired };
    try {
      const object = await client.patchStatus<T>(ref, body, "merge", patchOpts);
      return { written: true, object, status: desired };
    } catch (err) {
      if (!resourceVersion || !(err instanceof ConflictError) || typeof client.get !== "function" || attempt >= CONFLICT_ATTEMPTS) throw err;
      base = await client.get<T>(ref);
    }
  }
}

/** The status to send: `status`, `observedGeneration`, and `opts.conditions` set in the list of `live` (or of `status`). */
function desiredStatus(live: Record<string, unknown>, status: Record<string, unknown>, generation: number | undefined, opts: WriteStatusOptions): Record<string, unknown> {
  const desired: Record<string, unknown> = { ...status };
  if (generation !== undefined) desired.observedGeneration = generation;
  if (opts.conditions && opts.conditions.length > 0) {
    let conditions = (Array.isArray(desired.conditions) ? desired.conditions : Array.isArray(live.conditions) ? live.conditions : []) as Condition[];
    for (const c of opts.conditions) {
      conditions = setCondition(conditions, generation !== undefined ? { observedGeneration: generation, ...c } : c, opts.now);
    }
    desired.conditions = conditions;
  }
  return desired;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
