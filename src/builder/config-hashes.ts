/**
 * The config hashes of one workload: a hash per referenced ConfigMap/Secret that describes what
 * the cluster holds after this pass — or a reason to hold the workload back.
 *
 * Guarantees: a workload's hash env never describes config that is not in the cluster. A
 * referenced ConfigMap/Secret added in this pass is hashed from its desired object only once it
 * reconciled (`created`, `updated`, `unchanged`; for a plan, what the plan would do); when it
 * `failed` or is `waiting`, the workload is held back (`waiting`, naming it) and nothing is
 * written for it, so it rolls on the pass that writes the config. A referenced object the
 * Builder does not add is read live: NotFound means absent (no hash env for it), any other
 * read error fails the workload for this pass (nothing written for it), never "absent".
 */
import type { KubeObject, ObjectReader, ObjectRef } from "../client/types.ts";
import { isNotFound, OperatorRuntimeError } from "../errors.ts";
import { configDataHash, findConfigReferences, withConfigHashes } from "../hash/index.ts";
import type { ConfigReference } from "../hash/index.ts";
import type { ObjectResult } from "./reconcile-result.ts";
import { describeObject } from "./reconcile-result.ts";

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

/**
 * The workload with one hash env var per referenced ConfigMap/Secret that exists, or the
 * result that holds it back this pass (`waiting` on a config that did not reconcile, `failed`
 * on a read error).
 */
export async function withLiveConfigHashes(
  workload: KubeObject,
  ref: ObjectRef,
  outcomes: ConfigOutcomes,
  reader: ObjectReader,
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
      live = await reader.get({ apiVersion: "v1", kind: r.kind, name: r.name, ...(ns ? { namespace: ns } : {}) });
    } catch (err) {
      if (!isNotFound(err)) {
        const error = new OperatorRuntimeError(
          `${describeObject(ref)}: reading ${name}, which its pods use, failed: ${(err as Error)?.message ?? String(err)}. Nothing was written for ${describeObject(ref)}; the next pass retries (check the API server and RBAC get on ${r.kind === "Secret" ? "secrets" : "configmaps"})`,
          { cause: err },
        );
        return { held: { ...ref, action: "failed", error } };
      }
    }
    if (live) hashes.set(`${r.kind}/${r.name}`, configDataHash(live));
  }
  return { object: withConfigHashes(workload, (r: ConfigReference) => hashes.get(`${r.kind}/${r.name}`)).object };
}

function key(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ""}/${name}`;
}
