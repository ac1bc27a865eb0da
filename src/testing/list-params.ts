/**
 * The integer query parameters of gets, lists and watches, parsed as kube-apiserver parses them:
 * `resourceVersion` with Go's `strconv.ParseUint(s, 10, 64)` (digits only, at most 2^64 − 1),
 * `limit` with `strconv.ParseInt(s, 10, 64)` (an optional sign, then digits). `1.5`, `0x10`,
 * `1e3`, ` 5` and out-of-range values are 400 BadRequest, never read as some other number.
 * Resource versions are kept as `bigint`, so one past 2^53 still compares as asked.
 */
import { badRequest } from "./status.ts";

const MAX_UINT64 = 2n ** 64n - 1n;
const MAX_INT64 = 2n ** 63n - 1n;
const MIN_INT64 = -(2n ** 63n);

/**
 * A `resourceVersion` query value: `0n` for absent, `""` and `"0"` (any version), else the
 * number it names.
 *
 * @throws {StatusError} 400 `invalid resource version: …` with Go's parse error, as kube-apiserver.
 * @example
 * parseResourceVersion("18446744073709551615"); // 18446744073709551615n
 * parseResourceVersion("1e3");                  // throws 400
 */
export function parseResourceVersion(text: string | null): bigint {
  if (text === null || text === "" || text === "0") return 0n;
  const problem = !/^\d+$/.test(text) ? "invalid syntax" : BigInt(text) > MAX_UINT64 ? "value out of range" : undefined;
  if (problem) {
    throw badRequest(
      `invalid resource version: metadata.resourceVersion: Invalid value: ${JSON.stringify(text)}: strconv.ParseUint: parsing ${JSON.stringify(text)}: ${problem}`);
  }
  return BigInt(text);
}

/**
 * A `limit` query value: 0 when absent or empty (no limit), else the number it names.
 *
 * @throws {StatusError} 400 with Go's parse error for anything but an optionally signed decimal
 *   integer within int64, and for a negative limit.
 * @example
 * parseLimit("500"); // 500
 * parseLimit("0x2"); // throws 400
 */
export function parseLimit(text: string | null): number {
  if (text === null || text === "") return 0;
  const problem = !/^[+-]?\d+$/.test(text)
    ? "invalid syntax"
    : BigInt(text) > MAX_INT64 || BigInt(text) < MIN_INT64 ? "value out of range" : undefined;
  if (problem) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(text)}: ${problem}`);
  const limit = Number(text);
  if (limit < 0) throw badRequest(`invalid limit: ${text}`);
  return limit;
}
