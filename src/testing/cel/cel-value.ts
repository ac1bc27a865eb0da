/**
 * Custom-resource values as CEL sees them in validation rules: the JSON value at a schema node,
 * typed by the schema the way kube-apiserver's `UnstructuredToVal` types it.
 *
 * Objects become CEL maps holding only the fields present (so `has(self.x)` works and reading an
 * absent field is an error); `integer` → int (bigint), `number` → double, int-or-string and
 * untyped (`x-kubernetes-preserve-unknown-fields`) numbers → int when integral, else double;
 * lists element by element with the `items` schema. At a resource root (the top level and
 * `x-kubernetes-embedded-resource` objects) `metadata` shows only `name` and `generateName`,
 * as in kube-apiserver.
 *
 * Strings with `format: date-time` or `date` become CEL timestamps, `duration` durations and
 * `byte` bytes, as in kube-apiserver (a string the format does not parse stays a string).
 *
 * Caveats: `x-kubernetes-list-type: set` and `map` lists compare in order (kube-apiserver
 * ignores order for sets and map lists).
 *
 * @module
 */
import { celEnv, celList, celMap, isCelError, parse, plan } from "@bufbuild/cel";
import type { CelInput } from "@bufbuild/cel";
import { isJsonObject } from "../json-value.ts";
import { additionalSchema, isEmbeddedResource, isIntOrString, schemaProperties, schemaString, subSchema } from "../crd/schema-node.ts";
import type { JsonSchema } from "../crd/schema-node.ts";

const ROOT_METADATA_FIELDS = ["name", "generateName"];

/**
 * The CEL value of `value` at a node with `schema`; `resourceRoot` for the object root (or an
 * embedded resource), whose `metadata` keeps only `name` and `generateName`.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { size: { type: "integer" } } };
 * celValueOf({ size: 3 }, schema); // → a CEL map { "size": 3n }
 * ```
 */
export function celValueOf(value: unknown, schema: JsonSchema | undefined, resourceRoot = false): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return stringValue(value, schema);
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return numberValue(value, schema);
  if (Array.isArray(value)) {
    const items = subSchema(schema, "items");
    return celList(value.map((v) => celValueOf(v, items)));
  }
  if (isJsonObject(value)) {
    const properties = schemaProperties(schema);
    const additional = additionalSchema(schema);
    const root = resourceRoot || isEmbeddedResource(schema);
    const entries = new Map<string, CelInput>();
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined) continue;
      const memberSchema = properties?.[key] ?? (additional === true ? undefined : additional);
      if (root && key === "metadata" && isJsonObject(member)) {
        const kept = new Map<string, CelInput>();
        for (const field of ROOT_METADATA_FIELDS) if (typeof member[field] === "string") kept.set(field, member[field]);
        entries.set(key, celMap(kept));
      } else {
        entries.set(key, celValueOf(member, memberSchema));
      }
    }
    return celMap(entries);
  }
  return null;
}

function numberValue(value: number, schema: JsonSchema | undefined): CelInput {
  const type = schemaString(schema, "type");
  if (type === "number") return value;
  if (type === "integer" || isIntOrString(schema) || type === undefined) {
    return Number.isInteger(value) && Number.isSafeInteger(value) ? BigInt(value) : Number.isInteger(value) ? BigInt(Math.trunc(value)) : value;
  }
  return value;
}

type Converter = (bindings: { s: string }) => unknown;
let converters: { timestamp: Converter; duration: Converter } | undefined;

/** `timestamp(s)` and `duration(s)` of `@bufbuild/cel`, planned once. */
function formatConverters(): { timestamp: Converter; duration: Converter } {
  if (converters === undefined) {
    const env = celEnv();
    converters = { timestamp: plan(env, parse("timestamp(s)")) as Converter, duration: plan(env, parse("duration(s)")) as Converter };
  }
  return converters;
}

/** A string typed by its schema's `format`: timestamp, duration or bytes; else the string. */
function stringValue(value: string, schema: JsonSchema | undefined): CelInput {
  const format = schemaString(schema, "format");
  if (format === undefined) return value;
  let converted: unknown;
  switch (format) {
    case "date-time":
      converted = formatConverters().timestamp({ s: value });
      break;
    case "date":
      converted = /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatConverters().timestamp({ s: `${value}T00:00:00Z` }) : undefined;
      break;
    case "duration":
      converted = formatConverters().duration({ s: value });
      break;
    case "byte":
      return /^[A-Za-z0-9+/]*={0,2}$/.test(value) ? new Uint8Array(Buffer.from(value, "base64")) : value;
    default:
      return value;
  }
  return converted === undefined || isCelError(converted) ? value : (converted as CelInput);
}
