/**
 * Splits an API path into group, version, namespace, resource, name and subresource, the way
 * kube-apiserver's request-info resolver does (including `namespaces/{name}/status`).
 */
import { badRequest } from "./status.ts";

/** A parsed resource request path. */
export interface ResourcePath {
  group: string;
  version: string;
  namespace: string | undefined;
  plural: string;
  name: string | undefined;
  subresource: string | undefined;
}

const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

/**
 * Parses `/api/v1/...` or `/apis/{g}/{v}/...`; undefined for non-resource paths.
 *
 * `pathname` is the path as sent (dot segments not resolved: `..` and `%2e%2e` are names here,
 * never a step up to another resource); each segment is percent-decoded on its own, so an
 * encoded `/` stays inside its segment. Malformed %-encoding throws a 400, as Go's URL parser
 * rejects it before kube-apiserver routes the request.
 */
export function parseResourcePath(pathname: string): ResourcePath | undefined {
  const parts = pathname.split("/").filter((p) => p !== "").map((p) => decodeSegment(pathname, p));
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === "api" && parts.length >= 3) {
    group = "";
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let namespace: string | undefined;
  if (rest[0] === "namespaces" && rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  if (rest.length > 3) return undefined;
  return { group, version, namespace, plural: rest[0]!, name: rest[1], subresource: rest[2] };
}

/**
 * A boolean query parameter as kube-apiserver's query decoder reads it: absent is `undefined`;
 * `0` or `false` in any case is false; any other value, including the empty string (`?watch=`)
 * and Python's `True`, is true.
 *
 * @example
 * ```ts
 * queryBool(new URLSearchParams("watch=True"), "watch"); // → true
 * queryBool(new URLSearchParams("watch=FALSE"), "watch"); // → false
 * queryBool(new URLSearchParams(""), "watch");           // → undefined
 * ```
 */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const value = q.get(name);
  if (value === null) return undefined;
  const lower = value.toLowerCase();
  return lower !== "0" && lower !== "false";
}

function decodeSegment(pathname: string, segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    const bad = /%(?![0-9A-Fa-f]{2})[^/]{0,2}/.exec(segment)?.[0];
    throw badRequest(`parse ${JSON.stringify(pathname)}: ${bad ? `invalid URL escape ${JSON.stringify(bad)}` : "invalid UTF-8 in URL escape"}`);
  }
}

/**
 * The path of a request target as sent, without query or fragment; dot segments are kept
 * (unlike `new URL(...).pathname`, which would turn `/x/..` into `/`).
 */
export function rawPathOf(target: string): string {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (path.startsWith("/")) return path;
  // An absolute-form target (`http://host/path`): only its path matters.
  const afterScheme = path.indexOf("//");
  const slash = afterScheme === -1 ? -1 : path.indexOf("/", afterScheme + 2);
  return slash === -1 ? "/" : path.slice(slash);
}
