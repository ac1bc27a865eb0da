/**
 * Builder rules for Secrets: valid name and keys, base64 `data`, string `stringData`, the keys a typed Secret needs.
 */
import type { KubeObject } from "../src/client/types.ts";
import type { BuilderValidationError } from "../src/errors.ts";
import type { KindRules } from "./kind-rules.ts";
import { checkDataMap, checkDataSize, checkDisjointKeys, checkImmutableFlag } from "./config-data.ts";
import { isRecord, jsonType, keyPath, sameJson } from "./json.ts";
import type { Problems } from "./validation.ts";
import { checkKind, checkMetadata, problemsFor } from "./validation.ts";
import { nameRuleOf } from "../src/util/name-rules.ts";
import { setMember } from "../src/util/own-member.ts";

/** Keys the API server requires for the built-in Secret types (any one of each inner list). */
const REQUIRED_KEYS: Record<string, string[][]> = {
  "kubernetes.io/tls": [["tls.crt"], ["tls.key"]],
  "kubernetes.io/dockerconfigjson": [[".dockerconfigjson"]],
  "kubernetes.io/dockercfg": [[".dockercfg"]],
  "kubernetes.io/basic-auth": [["username", "password"]],
  "kubernetes.io/ssh-auth": [["ssh-privatekey"]],
};

/** The rule kube-apiserver applies to the name (see `nameRuleOf`). */
const NAME_RULE = nameRuleOf("", "Secret");

/**
 * Rules for `v1` Secrets, reconciled in the `config` phase. Messages name keys, never values.
 *
 * Validation: `metadata.name` a DNS-1123 subdomain; `data` and `stringData` keys of letters,
 * digits, `-`, `_`, `.` (at most 253); no key in both maps (the server lets `stringData` win, so
 * the desired `data` would never match the live object); `data` values base64, `stringData`
 * values strings; total size at most 1 MiB; `type` a string, and the keys the built-in types
 * need (`kubernetes.io/tls` → `tls.crt` and `tls.key`, …).
 *
 * Immutable changes: `type` (when the desired object sets it), and for a live Secret with
 * `immutable: true` any change to its data or the flag.
 *
 * @example
 * ```ts
 * secretRules.validate({
 *   apiVersion: "v1", kind: "Secret", metadata: { name: "db" },
 *   type: "Opaque", stringData: { password: "s3cret" },
 * }); // []
 * ```
 */
export const secretRules: KindRules = {
  apiVersion: "v1",
  kind: "Secret",
  phase: "config",
  validate(obj: KubeObject): BuilderValidationError[] {
    const p = problemsFor(obj, "Secret");
    checkKind(p, obj, "v1", "Secret");
    checkMetadata(p, obj, NAME_RULE);
    const data = checkDataMap(p, "data", obj.data, "base64");
    const stringData = checkDataMap(p, "stringData", obj.stringData, "string");
    checkDisjointKeys(p, "data", data.keys, "stringData", stringData.keys);
    checkDataSize(p, "data + stringData", data.bytes + stringData.bytes);
    checkImmutableFlag(p, obj.immutable);
    checkType(p, obj.type, new Set([...data.keys, ...stringData.keys]));
    return p.list;
  },
  immutableChanges(live: KubeObject, desired: KubeObject): string[] {
    const changed: string[] = [];
    if (typeof desired.type === "string" && desired.type !== (live.type ?? "Opaque")) changed.push("type");
    if (live.immutable !== true) return changed;
    if (!sameJson(live.data ?? {}, effectiveData(desired))) changed.push("data");
    if (desired.immutable !== true) changed.push("immutable");
    return changed;
  },
};

function checkType(p: Problems, type: unknown, keys: Set<string>): void {
  if (type === undefined) return;
  if (typeof type !== "string" || type === "") {
    p.add("type", `is ${typeof type === "string" ? "empty" : jsonType(type)}`, 'set type to a string such as "Opaque", or omit it');
    return;
  }
  for (const anyOf of REQUIRED_KEYS[type] ?? []) {
    if (anyOf.some((k) => keys.has(k))) continue;
    const names = anyOf.map((k) => JSON.stringify(k)).join(" or ");
    p.add(keyPath("data", anyOf[0]!), `a Secret of type ${type} needs the key ${names}`, `add ${names} to data or stringData, or use type "Opaque"`);
  }
}

/** The desired `data` as the server will store it: `data` with `stringData` base64-encoded over it. */
function effectiveData(desired: KubeObject): Record<string, unknown> {
  const data: Record<string, unknown> = isRecord(desired.data) ? { ...desired.data } : {};
  if (isRecord(desired.stringData)) {
    for (const [k, v] of Object.entries(desired.stringData)) setMember(data, k, Buffer.from(String(v), "utf8").toString("base64"));
  }
  return data;
}
