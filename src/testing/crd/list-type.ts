/**
 * `x-kubernetes-list-type`: how a custom resource's lists merge, and their uniqueness rules.
 */
import type { ListType, ListTypeLookup } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { canonicalJson, isJsonObject, setMember } from "../json-value.ts";
import { indexPath } from "./field-path.ts";
import { additionalSchema, schemaProperties, schemaString, schemaStrings, subSchema } from "./schema-node.ts";
import type { JsonSchema } from "./schema-node.ts";

const ATOMIC: ListType = { type: "atomic" };

/**
 * The list type one array schema declares: `set`, `map` (with `x-kubernetes-list-map-keys`) or,
 * by default, `atomic`.
 *
 * @example
 * ```ts
 * listTypeOf({ type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] });
 * // → { type: "map", keys: ["name"] }
 * ```
 */
export function listTypeOf(schema: JsonSchema | undefined): ListType {
  switch (schemaString(schema, "x-kubernetes-list-type")) {
    case "set":
      return { type: "set" };
    case "map":
      return { type: "map", keys: schemaStrings(schema, "x-kubernetes-list-map-keys") };
    default:
      return ATOMIC;
  }
}

/**
 * A {@link ListTypeLookup} answering from a CRD version's `openAPIV3Schema`: the path (map keys
 * from the root, list indices removed) is followed through `properties`, `additionalProperties`
 * and, across lists, `items`; the list found there reports its `x-kubernetes-list-type`.
 * Unknown paths and undeclared lists are `atomic`, as for the apiserver.
 *
 * @example
 * ```ts
 * const lookup = schemaListType({
 *   type: "object",
 *   properties: { spec: { type: "object", properties: { endpoints: {
 *     type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port"],
 *     items: { type: "object", properties: { port: { type: "integer" } } },
 *   } } } },
 * });
 * lookup(["spec", "endpoints"]); // → { type: "map", keys: ["port"] }
 * ```
 */
export function schemaListType(schema: JsonSchema | undefined): ListTypeLookup {
  return (path) => {
    let node = schema;
    for (const key of path) {
      node = member(node, key);
      if (node === undefined) return ATOMIC;
    }
    return listTypeOf(node);
  };
}

function member(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  let node = schema;
  for (let items = subSchema(node, "items"); items !== undefined; items = subSchema(node, "items")) node = items;
  const properties = schemaProperties(node);
  if (properties !== undefined && Object.hasOwn(properties, key)) return properties[key];
  const additional = additionalSchema(node);
  return additional === true ? undefined : additional;
}

/**
 * The `Duplicate value` causes of a list whose schema says `x-kubernetes-list-type: set` (equal
 * elements) or `map` (equal key fields); one cause per repeated element after its first
 * occurrence, at `path[i]`. Other lists yield none.
 *
 * @example
 * ```ts
 * listUniquenessCauses(["a", "a"], { "x-kubernetes-list-type": "set" }, "spec.tags");
 * // → [{ reason: "FieldValueDuplicate", field: "spec.tags[1]", message: 'Duplicate value: "a"' }]
 * ```
 */
export function listUniquenessCauses(list: readonly unknown[], schema: JsonSchema, path: string): StatusCause[] {
  const listType = listTypeOf(schema);
  if (listType.type === "atomic") return [];
  const seen = new Set<string>();
  const causes: StatusCause[] = [];
  list.forEach((element, i) => {
    let identity: unknown = element;
    if (listType.type === "map") {
      if (!isJsonObject(element)) return;
      const keyFields: Record<string, unknown> = {};
      for (const key of listType.keys) if (Object.hasOwn(element, key)) setMember(keyFields, key, element[key]);
      identity = keyFields;
    }
    const canonical = canonicalJson(identity);
    if (seen.has(canonical)) {
      causes.push(duplicateValue(indexPath(path, i), identity));
    } else {
      seen.add(canonical);
    }
  });
  return causes;
}

/** `Duplicate value: <value>` (reason FieldValueDuplicate); objects are shown as JSON. */
function duplicateValue(field: string, value: unknown): StatusCause {
  return { reason: "FieldValueDuplicate", field, message: `Duplicate value: ${JSON.stringify(value ?? null)}` };
}
