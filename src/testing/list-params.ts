/**
 * The integer query parameters of gets, lists and watches, parsed as kube-apiserver parses them:
 * `resourceVersion` with Go's `strconv.ParseUint(s, 10, 64)` (digits only, at most 2^64 − 1),
 * `limit` with `strconv.ParseInt(s, 10, 64)` (an optional sign, then digits). `1.5`, `0x10`,
 * `1e3`, ` 5` and out-of-range values are 400 BadRequest, never read as some other number.
 * Resource versions are kept as `bigint`, so one past 2^53 still compares as asked.
 */
import { badRequest, forbidden, StatusError, unsupportedValue } from "./status.ts";
import type { StatusCause } from "./status.ts";
import { queryBool } from "./request-info.ts";

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

/**
 * A `resourceVersion` query value: `0n` for absent, `""` and `"0"` (any version), else the
 * number it names.
 *
 * @throws {StatusError} 400 `invalid resource version: resourceVersion: Invalid value: "abc":
 *   strconv.ParseUint: parsing "abc": invalid syntax`, as kube-apiserver words it.
 * @example
 * ```ts
 * parseResourceVersion("18446744073709551615"); // → 18446744073709551615n
 * parseResourceVersion("1e3");                  // → throws 400
 * ```
 */
export function parseResourceVersion(text: string | null): bigint {
  if (text === null || text === "" || text === "0") return 0n;
  const problem = !/^\d+$/.test(text) ? "invalid syntax" : BigInt(text) > MAX_UINT64 ? "value out of range" : undefined;
  if (problem) {
    throw badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(text)}: strconv.ParseUint: parsing ${JSON.stringify(text)}: ${problem}`);
  }
  return BigInt(text);
}

/**
 * A `limit` query value: 0 when absent, empty or not positive (no limit: kube-apiserver pages
 * only for a limit above 0 and accepts a negative one as none), else the number it names.
 *
 * @throws {StatusError} 400 with Go's parse error for anything but an optionally signed decimal
 *   integer within int64.
 * @example
 * ```ts
 * parseLimit("500"); // → 500
 * parseLimit("0x2"); // → throws 400
 * ```
 */
export function parseLimit(text: string | null): number {
  if (text === null || text === "") return 0;
  const problem = !/^[+-]?\d+$/.test(text)
    ? "invalid syntax"
    : BigInt(text) > MAX_INT64 || BigInt(text) < MIN_INT64 ? "value out of range" : undefined;
  if (problem) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: ${problem}`);
  return Math.max(0, Number(text));
}

const MATCH = "resourceVersionMatch";

/**
 * kube-apiserver's `ValidateListOptions` (WatchList feature gate on, as in v1.36) over the
 * query of a list (`watch` false) or a watch: the `resourceVersion`, `resourceVersionMatch`,
 * `sendInitialEvents` and `continue` combinations it refuses, each as one cause.
 *
 * @example
 * ```ts
 * listOptionCauses(new URLSearchParams("resourceVersionMatch=NotOlderThan"), false);
 * // → [{ reason: "FieldValueForbidden", field: "resourceVersionMatch",
 * //      message: "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided" }]
 * ```
 */
export function listOptionCauses(query: URLSearchParams, watch: boolean): StatusCause[] {
  const match = query.get(MATCH) ?? "";
  const rv = query.get("resourceVersion") ?? "";
  const hasContinue = (query.get("continue") ?? "") !== "";
  const sendInitialEvents = queryBool(query, "sendInitialEvents");
  const causes: StatusCause[] = [];
  if (watch) {
    if (sendInitialEvents !== undefined && match !== "NotOlderThan") {
      causes.push(forbidden(MATCH, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
    }
    if (match !== "") {
      if (sendInitialEvents === undefined) causes.push(forbidden(MATCH, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"));
      if (match !== "NotOlderThan") causes.push(unsupportedValue(MATCH, match, ["NotOlderThan"]));
      if (hasContinue) causes.push(forbidden(MATCH, "resourceVersionMatch is forbidden when continue is provided"));
    }
    return causes;
  }
  if (match !== "") {
    if (rv === "") causes.push(forbidden(MATCH, "resourceVersionMatch is forbidden unless resourceVersion is provided"));
    if (hasContinue) causes.push(forbidden(MATCH, "resourceVersionMatch is forbidden when continue is provided"));
    if (match !== "Exact" && match !== "NotOlderThan") causes.push(unsupportedValue(MATCH, match, ["Exact", "NotOlderThan", ""]));
    if (match === "Exact" && rv === "0") causes.push(forbidden(MATCH, `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`));
  }
  if (sendInitialEvents !== undefined) causes.push(forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"));
  return causes;
}

/**
 * Answers {@link listOptionCauses} as kube-apiserver does: 422 Invalid for the kind
 * `ListOptions` of group `meta.k8s.io`, with no name.
 *
 * @throws {StatusError} 422 `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: …`
 *   when the options are refused.
 */
export function validateListOptions(query: URLSearchParams, watch: boolean): void {
  const causes = listOptionCauses(query, watch);
  if (causes.length === 0) return;
  const parts = causes.map((c) => `${c.field}: ${c.message}`);
  const summary = parts.length === 1 ? parts[0] : `[${parts.join(", ")}]`;
  throw new StatusError(422, "Invalid", `ListOptions.meta.k8s.io "" is invalid: ${summary}`,
    { group: "meta.k8s.io", kind: "ListOptions", causes });
}
