/**
 * Builder rules for ConfigMaps: valid name and keys, string and base64 values, at most 1 MiB.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import type { KindRules } from "./kind-rules.ts";
import { checkDataMap, checkDataSize, checkDisjointKeys, checkImmutableFlag } from "./config-data.ts";
import { sameJson } from "./json.ts";
import { checkKind, checkMetadata, problemsFor } from "./validation.ts";
import { nameRuleOf } from "../src/util/name-rules.ts";

/** The rule kube-apiserver applies to the name (see `nameRuleOf`). */
const NAME_RULE = nameRuleOf("", "ConfigMap");

/**
 * Rules for `v1` ConfigMaps, reconciled in the `config` phase (before the workloads that hash them).
 *
 * Validation: `metadata.name` a DNS-1123 subdomain; `data` and `binaryData` keys of letters,
 * digits, `-`, `_`, `.` (at most 253, not `.`/`..`), no key in both maps; `data` values are
 * strings, `binaryData` values base64; total size at most 1 MiB; `immutable` a boolean.
 *
 * Immutable changes: once a live ConfigMap has `immutable: true`, the API server refuses any
 * change to `data`, `binaryData` or `immutable` (delete and recreate it instead).
 *
 * @example
 * ```ts
 * const problems = configMapRules.validate({
 *   apiVersion: "v1", kind: "ConfigMap",
 *   metadata: { name: "web-config" }, data: { "app.properties": "port=8080" },
 * });
 * // problems.length === 0
 * ```
 */
export const configMapRules: KindRules = {
  apiVersion: "v1",
  kind: "ConfigMap",
  phase: "config",
  validate(obj: KubeObject): BuilderValidationError[] {
    const p = problemsFor(obj, "ConfigMap");
    checkKind(p, obj, "v1", "ConfigMap");
    checkMetadata(p, obj, NAME_RULE);
    const data = checkDataMap(p, "data", obj.data, "string");
    const binary = checkDataMap(p, "binaryData", obj.binaryData, "base64");
    checkDisjointKeys(p, "data", data.keys, "binaryData", binary.keys);
    checkDataSize(p, "data + binaryData", data.bytes + binary.bytes);
    checkImmutableFlag(p, obj.immutable);
    return p.list;
  },
  immutableChanges(live: KubeObject, desired: KubeObject): string[] {
    if (live.immutable !== true) return [];
    const changed: string[] = [];
    if (!sameJson(live.data ?? {}, desired.data ?? {})) changed.push("data");
    if (!sameJson(live.binaryData ?? {}, desired.binaryData ?? {})) changed.push("binaryData");
    if (desired.immutable !== true) changed.push("immutable");
    return changed;
  },
};
