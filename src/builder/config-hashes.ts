/**
 * The config hashes of one workload: a hash per referenced ConfigMap/Secret that describes what
 * the cluster holds after this pass — or a reason to hold the workload back.
 *
 * Guarantees: a workload's hash env never describes config that is not in the cluster. A
 * referenced ConfigMap/Secret added in this pass is hashed from its desired object only once it
 * reconciled (`created`, `updated`, `unchanged`; for a plan, what the plan would do); when it
 * `failed` or is `waiting`, the workload is held back (`waiting`, naming it) and nothing is
 * written for it, so it rolls on the pass that writes the config. A referenced object the
 * Builder does not add is read live, by name in the workload's namespace and only when a
 * workload references it (see {@link configReader}): NotFound means absent (no hash env for
 * it), any other read error fails the workload for this pass (nothing written for it), never
 * "absent"; a 403 names the RBAC to grant.
 */
import type { ResourceClient } from "../client/resource-client.ts";
import type { KubeObject, ObjectReader, ObjectRef } from "../client/types.ts";
import { ForbiddenError, isNotFound, OperatorRuntimeError } from "../errors.ts";
import { configDataHash, findConfigReferences, withConfigHashes } from "../hash/index.ts";
import type { ConfigReference } from "../hash/index.ts";
import type { ObjectResult } from "../controller/results.ts";
import { describeObject } from "../controller/results.ts";

/** What the config phase of this pass did: each desired ConfigMap/Secret's hash and outcome. */
export class ConfigOutcomes {
  readonly #hashes = new Map<string, string>();
  readonly #results = new Map<string, ObjectResult>();

  /** Records a desired ConfigMap/Secret (before it is reconciled). */
  desire(obj: KubeObject, namespace: string | undefined): void {
    this.#hashes.set(key(obj.kind ?? "", namespace, obj.metadata?.name ?? ""), configDataHash(obj));
  }

  /** Records how a desired ConfigMap/Secret reconciled. */
  reconciled(result: ObjectResult): void {
    this.#results.set(key(result.kind, result.namespace, result.name), result);
  }

  /** The desired hash, when the pass adds this object. */
  hash(kind: string, namespace: string | undefined, name: string): string | undefined {
    return this.#hashes.get(key(kind, namespace, name));
  }

  /** The outcome, when the pass added and reconciled this object. */
  result(kind: string, namespace: string | undefined, name: string): ObjectResult | undefined {
    return this.#results.get(key(kind, namespace, name));
  }
}

/** Reads one referenced ConfigMap/Secret: the object, or undefined when it does not exist. */
export type ConfigReader = (ref: ObjectRef) => Promise<KubeObject | undefined>;

/** A reader that answers from informers already synced, without creating one (the `Cache`). */
interface PeekingReader {
  peek(ref: ObjectRef): { object: KubeObject | undefined } | undefined;
}

/**
 * How a pass reads the ConfigMaps/Secrets its workloads reference and it does not add: from a
 * synced informer of `reader` that covers the object's kind and namespace (a `Cache` whose
 * controller owns or watches the kind: no request), else with one GET from the API. Never
 * through an informer created for the read: that would list and watch every Secret of the
 * cluster (and need the RBAC for it) to read one.
 */
export function configReader(reader: ObjectReader, client: ResourceClient): ConfigReader {
  const peeking = typeof (reader as Partial<PeekingReader>).peek === "function" ? reader as ObjectReader & PeekingReader : undefined;
  let api: ObjectReader | undefined;
  return async (ref) => {
    const hit = peeking?.peek(ref);
    if (hit) return hit.object;
    api ??= client.reader();
    return api.get(ref);
  };
}

/**
 * The workload with one hash env var per referenced ConfigMap/Secret that exists, or the
 * result that holds it back this pass (`waiting` on a config that did not reconcile, `failed`
 * on a read error).
 */
export async function withLiveConfigHashes(
  workload: KubeObject,
  ref: ObjectRef,
  outcomes: ConfigOutcomes,
  read: ConfigReader,
): Promise<{ object: KubeObject } | { held: ObjectResult }> {
  const ns = ref.namespace;
  const podSpec = (workload.spec as { template?: { spec?: unknown } } | undefined)?.template?.spec;
  const hashes = new Map<string, string>();
  for (const r of findConfigReferences(podSpec ?? {})) {
    const name = describeObject({ kind: r.kind, name: r.name, namespace: ns });
    const desired = outcomes.hash(r.kind, ns, r.name);
    if (desired !== undefined) {
      const outcome = outcomes.result(r.kind, ns, r.name);
      if (outcome?.action === "failed" || outcome?.action === "waiting") {
        return { held: { ...ref, action: "waiting", reason: `waiting for ${name}, which ${outcome.action === "failed" ? "failed" : "is waiting"} this pass (its hash would describe config the cluster does not hold)` } };
      }
      hashes.set(`${r.kind}/${r.name}`, desired);
      continue;
    }
    let live: KubeObject | undefined;
    try {
      live = await read({ apiVersion: "v1", kind: r.kind, name: r.name, ...(ns ? { namespace: ns } : {}) });
    } catch (err) {
      if (!isNotFound(err)) return { held: { ...ref, action: "failed", error: readFailed(ref, r, name, err) } };
    }
    if (live) hashes.set(`${r.kind}/${r.name}`, configDataHash(live));
  }
  return { object: withConfigHashes(workload, (r: ConfigReference) => hashes.get(`${r.kind}/${r.name}`)).object };
}

/** Why a workload is held back when reading a config it references failed; a 403 names the grant. */
function readFailed(workload: ObjectRef, r: ConfigReference, name: string, err: unknown): OperatorRuntimeError {
  const resource = r.kind === "Secret" ? "secrets" : "configmaps";
  const where = workload.namespace ? ` in namespace ${JSON.stringify(workload.namespace)}` : "";
  const nothing = `Nothing was written for ${describeObject(workload)}; the next pass retries`;
  if (err instanceof ForbiddenError) {
    return new OperatorRuntimeError(
      `${describeObject(workload)}: reading ${name}, which its pods use, was refused (403 Forbidden). ${nothing}. Fix: grant get on ${resource}${where} (a Role there, or \`.uses(${r.kind}, { verbs: ["get"] })\` on the controller for operator-runtime gen rbac)`,
      { cause: err },
    );
  }
  return new OperatorRuntimeError(
    `${describeObject(workload)}: reading ${name}, which its pods use, failed: ${(err as Error)?.message ?? String(err)}. ${nothing} (check the API server and RBAC get on ${resource}${where})`,
    { cause: err },
  );
}

function key(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ""}/${name}`;
}
