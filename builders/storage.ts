/**
 * Builder rules for PersistentVolumeClaims: access modes, a storage request, and growing only when bound.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import type { KindRules } from "./kind-rules.ts";
import { checkClaimSpec, storageRequest } from "./claim-spec.ts";
import { at, sameJson } from "./json.ts";
import { checkKind, checkMetadata, problemsFor } from "./validation.ts";
import { nameRuleOf } from "../src/util/name-rules.ts";

export { parseQuantity } from "../src/util/quantity.ts";

/** The rule kube-apiserver applies to the name (see `nameRuleOf`). */
const NAME_RULE = nameRuleOf("", "PersistentVolumeClaim");

/**
 * Rules for `v1` PersistentVolumeClaims, reconciled in the `storage` phase (before the
 * workloads that mount them).
 *
 * Validation: `metadata.name` a DNS-1123 subdomain; `spec.accessModes` non-empty, each one of
 * ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod; `spec.resources.requests.storage`
 * present and a positive quantity (see {@link parseQuantity}); `volumeMode` Filesystem or Block.
 *
 * Immutable changes — the API server's rule, which we follow rather than simplify: a claim's
 * spec is fixed after creation except that a **Bound** claim (`live.status.phase === "Bound"`)
 * may grow its storage request (volume expansion). So we report
 * - `spec.resources.requests.storage` for a decrease of a bound claim, and for any change of a
 *   claim that is not bound yet (the server only resizes bound claims; wait for binding);
 * - `spec.accessModes`, `spec.selector`, `spec.dataSource`, `spec.dataSourceRef` when the desired
 *   object sets them and they differ;
 * - `spec.volumeMode` when set and different from the live mode (default Filesystem);
 * - `spec.storageClassName` when set and different from the live class, or when the live claim
 *   has none but is bound (an unbound claim may still get its class, like the server allows);
 * - `spec.volumeName` when set and different from a live, non-empty volume name (the binder
 *   fills it once; setting it on a claim without one is allowed).
 * Fields the desired object omits are never compared: the server fills the default class, the
 * volume mode and the bound volume's name.
 *
 * @example
 * ```ts
 * const spec = (size: string) => ({ accessModes: ["ReadWriteOnce"], resources: { requests: { storage: size } } });
 * const live = { spec: spec("10Gi"), status: { phase: "Bound" } };
 * storageRules.immutableChanges!(live, { spec: spec("20Gi") }); // [] (expansion)
 * storageRules.immutableChanges!(live, { spec: spec("5Gi") });  // ["spec.resources.requests.storage"]
 * ```
 */
export const storageRules: KindRules = {
  apiVersion: "v1",
  kind: "PersistentVolumeClaim",
  phase: "storage",
  validate(obj: KubeObject): BuilderValidationError[] {
    const p = problemsFor(obj, "PersistentVolumeClaim");
    checkKind(p, obj, "v1", "PersistentVolumeClaim");
    checkMetadata(p, obj, NAME_RULE);
    checkClaimSpec(p, "spec", obj.spec);
    return p.list;
  },
  immutableChanges(live: KubeObject, desired: KubeObject): string[] {
    const bound = at(live, "status", "phase") === "Bound";
    const have = (key: string) => at(live, "spec", key);
    const want = (key: string) => at(desired, "spec", key);
    const changed: string[] = [];
    for (const key of ["accessModes", "selector", "dataSource", "dataSourceRef"]) {
      if (want(key) !== undefined && !sameJson(want(key), have(key))) changed.push(`spec.${key}`);
    }
    if (want("volumeMode") !== undefined && want("volumeMode") !== (have("volumeMode") ?? "Filesystem")) changed.push("spec.volumeMode");
    const wantClass = want("storageClassName");
    if (wantClass !== undefined && (have("storageClassName") === undefined ? bound : wantClass !== have("storageClassName"))) {
      changed.push("spec.storageClassName");
    }
    const wantVolume = want("volumeName");
    const haveVolume = have("volumeName");
    if (typeof wantVolume === "string" && wantVolume !== "" && typeof haveVolume === "string" && haveVolume !== "" && wantVolume !== haveVolume) {
      changed.push("spec.volumeName");
    }
    const wantSize = storageRequest(desired.spec);
    const haveSize = storageRequest(live.spec);
    if (wantSize !== undefined && haveSize !== undefined && wantSize !== haveSize && (!bound || wantSize < haveSize)) {
      changed.push("spec.resources.requests.storage");
    }
    return changed;
  },
};
