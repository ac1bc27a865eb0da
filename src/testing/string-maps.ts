/**
 * The decode-time type checks of the string maps of built-in objects, as Go's JSON decoder makes
 * them when kube-apiserver reads a body into its typed struct: labels and annotations, ConfigMap
 * `data`/`binaryData`, Secret `data`/`stringData`, selectors. A number, boolean, list or object
 * where a string (or a map of them) belongs is a decode error, never stored; a `null` value is
 * Go's zero value (`""`); a `[]byte` value (`binaryData`, Secret `data`) must be valid standard
 * base64.
 *
 * Expected flow: {@link stringMapDecodeError} runs on every body a write decodes (create and
 * update bodies, patch results, apply configurations) before anything validates or stores it;
 * the caller wraps the message the way kube-apiserver does for that kind of write.
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import { getMember, goJsonKind, isJsonObject } from "./json-value.ts";

/** One `map[string]string` or `map[string][]byte` field: where it is and how Go names it. */
interface MapField {
  /** Member names from the object root. */
  path: readonly string[];
  /** The Go struct that holds the field, as the decoder names it (`ConfigMap`, `ObjectMeta`). */
  struct: string;
  /** Values are `[]byte` (base64 in JSON) rather than `string`. */
  bytes?: boolean;
}

const meta = (prefix: readonly string[]): MapField[] => [
  { path: [...prefix, "metadata", "labels"], struct: "ObjectMeta" },
  { path: [...prefix, "metadata", "annotations"], struct: "ObjectMeta" },
];

const WORKLOAD: readonly MapField[] = [
  { path: ["spec", "selector", "matchLabels"], struct: "LabelSelector" },
  ...meta(["spec", "template"]),
];

/** The string maps of each built-in kind, besides `metadata.labels` and `metadata.annotations`. */
const KIND_FIELDS: ReadonlyMap<string, readonly MapField[]> = new Map([
  ["ConfigMap", [{ path: ["data"], struct: "ConfigMap" }, { path: ["binaryData"], struct: "ConfigMap", bytes: true }]],
  ["Secret", [{ path: ["data"], struct: "Secret", bytes: true }, { path: ["stringData"], struct: "Secret" }]],
  ["Service", [{ path: ["spec", "selector"], struct: "ServiceSpec" }]],
  ["Deployment", WORKLOAD],
  ["StatefulSet", WORKLOAD],
  ["ReplicaSet", WORKLOAD],
]);

/**
 * The Go decoder's error for the first badly typed string map of `obj`, or undefined when all
 * are well typed. Also normalizes `obj` in place as the decoder would read it: a `null` map
 * value becomes `""`, a `null` map is left out.
 *
 * @example
 * ```ts
 * import type { Registry } from "./registry.ts";
 *
 * declare const registry: Registry;
 * const configMaps = registry.byKind("v1", "ConfigMap")!, secrets = registry.byKind("v1", "Secret")!;
 * stringMapDecodeError(configMaps, { data: { a: 1 } });
 * // → "json: cannot unmarshal number into Go struct field ConfigMap.data of type string"
 * stringMapDecodeError(secrets, { data: { a: "!!!!" } });
 * // → "illegal base64 data at input byte 0"
 * ```
 */
export function stringMapDecodeError(type: ResourceType, obj: KubeObject): string | undefined {
  const fields = [...meta([]), ...(type.builtin ? (KIND_FIELDS.get(type.kind) ?? []) : [])];
  for (const field of fields) {
    const error = checkMap(obj, field);
    if (error) return error;
  }
  return undefined;
}

function checkMap(obj: KubeObject, field: MapField): string | undefined {
  let parent: unknown = obj;
  for (const key of field.path.slice(0, -1)) {
    parent = isJsonObject(parent) ? getMember(parent, key) : undefined;
  }
  const last = field.path[field.path.length - 1]!;
  if (!isJsonObject(parent) || !Object.hasOwn(parent, last)) return undefined;
  const map = parent[last];
  const valueType = field.bytes ? "[]uint8" : "string";
  const where = `Go struct field ${field.struct}.${field.path.join(".")}`;
  if (map === null) {
    delete parent[last];
    return undefined;
  }
  if (!isJsonObject(map)) return `json: cannot unmarshal ${goJsonKind(map)} into ${where} of type map[string]${valueType}`;
  for (const [key, value] of Object.entries(map)) {
    if (value === null) {
      map[key] = "";
    } else if (typeof value !== "string") {
      return `json: cannot unmarshal ${goJsonKind(value)} into ${where} of type ${valueType}`;
    } else if (field.bytes) {
      const bad = base64ErrorOffset(value);
      if (bad !== undefined) return `illegal base64 data at input byte ${bad}`;
    }
  }
  return undefined;
}

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;

/**
 * Where Go's `base64.StdEncoding.Decode` reports a `CorruptInputError` in `text`, or undefined
 * when it decodes: padded standard base64 whose `\r` and `\n` are skipped.
 */
export function base64ErrorOffset(text: string): number | undefined {
  const isNewline = (i: number) => text[i] === "\n" || text[i] === "\r";
  let si = 0;
  while (si < text.length) {
    // One quantum of four characters.
    for (let j = 0; j < 4; j++) {
      if (si === text.length) {
        if (j === 0) return undefined;
        return si - j;
      }
      const c = text[si]!;
      si++;
      if (BASE64_ALPHABET.test(c)) continue;
      if (c === "\n" || c === "\r") {
        j--;
        continue;
      }
      if (c !== "=") return si - 1;
      // Padding: the end of the data.
      if (j < 2) return si - 1;
      if (j === 2) {
        while (si < text.length && isNewline(si)) si++;
        if (si === text.length) return text.length;
        if (text[si] !== "=") return si - 1;
        si++;
      }
      while (si < text.length && isNewline(si)) si++;
      return si < text.length ? si : undefined;
    }
  }
  return undefined;
}
