/**
 * One declaration written by json-schema-to-typescript, named exactly as asked and with every
 * field as the schema declares it. The library spells names its own way (`K8sGPT` becomes
 * `K8SGPT`) and stumbles over fields named after `Object.prototype` members, so it is given
 * placeholders, and the real names are put back into what it writes.
 */
import { createHash } from "node:crypto";
import type { JSONSchema } from "json-schema-to-typescript";
import { isJsonObject } from "./crd-source.ts";
import { CrdTypesError } from "./crd-types-error.ts";
import { escapeLineSeparators, printable } from "./untrusted-text.ts";

/** Compiles a JSON schema into a TypeScript declaration named `name` (json-schema-to-typescript). */
export type CompileSchema = (schema: JSONSchema, name: string) => Promise<string>;

/** The name the library is given for the declaration: one its spelling leaves as it is. */
const PLACEHOLDER_NAME = "GeneratedDeclaration";

/**
 * Field names the library gets as placeholders: `Object.prototype`'s own names (with a field
 * named `hasOwnProperty` it calls the schema's field instead of the method, and fails).
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The members of TypeScript's `Object` interface. TypeScript gives every object type these
 * members, so an object without such a field still "has" it, with `Object`'s type: an optional
 * field of one of these names must also accept that type, or no object literal would fit.
 */
const OBJECT_MEMBERS = new Set(["constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"]);

/** A schema with some field names replaced by placeholders, and what each placeholder stands for. */
interface Placeholders {
  prefix: string;
  fields: Map<string, string>;
}

/**
 * Compiles `schema` into one declaration named `name` (any valid TypeScript name, spelled as
 * given). Fields named after `Object.prototype` members keep their names; an optional one named
 * after a member of TypeScript's `Object` interface (`constructor`, `toString`, `valueOf`, …) is
 * typed as declared or as that member (`string | globalThis.Object["constructor"]`), since
 * TypeScript gives every object that member. Raw U+2028 and U+2029 (which can only stand in
 * string literals, from enum values or quoted field names) are written as escapes.
 *
 * @throws {CrdTypesError} naming `origin` and `name` when the library fails on the schema or
 *   declares anything but the one declaration (a bug here, never a stack trace).
 * @example
 * ```ts
 * import { schemaCompiler } from "./schema-compiler.ts";
 *
 * const compile = await schemaCompiler();
 * await declaration(compile, { type: "object", properties: { size: { type: "string" } } }, "K8sGPTSpec", "crds/k8sgpt.yaml");
 * // "export interface K8sGPTSpec {\n  size?: string;\n}"
 * ```
 */
export async function declaration(compile: CompileSchema, schema: JSONSchema, name: string, origin: string): Promise<string> {
  const text = JSON.stringify(schema);
  // A prefix no name in the schema holds: "__field", or with the schema's own hash when a name
  // holds that (a fixed length, so a CRD cannot make it long or make the search slow).
  const prefix = text.includes("__field") ? `__field_${createHash("sha256").update(text).digest("hex").slice(0, 16)}_` : "__field";
  const placeholders: Placeholders = { prefix, fields: new Map() };
  let compiled: string;
  try {
    compiled = await compile(withPlaceholders(schema, placeholders), PLACEHOLDER_NAME);
  } catch (err) {
    const reason = printable(String((err as Error).message ?? err).split("\n")[0] ?? "");
    throw new CrdTypesError(`${origin}: json-schema-to-typescript cannot type ${name}: ${reason}`, { cause: err });
  }
  const code = escapeLineSeparators(compiled.trim());
  const declared = [...code.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
  if (declared.length !== 1 || declared[0] !== PLACEHOLDER_NAME) {
    throw new CrdTypesError(`${origin}: json-schema-to-typescript declared ${declared.join(", ") || "nothing"} for ${name} (a bug in gen types)`);
  }
  const named = code.replace(new RegExp(`^export (interface|type) ${PLACEHOLDER_NAME}\\b`, "m"), `export $1 ${name}`);
  const restored = named.replace(new RegExp(`^( *)(${prefix}\\d+)(?=\\??:)`, "gm"), (_m, indent: string, p: string) => `${indent}${placeholders.fields.get(p)}`);
  if (restored.includes(prefix)) throw new CrdTypesError(`${origin}: json-schema-to-typescript wrote a field of ${name} where it was not expected (a bug in gen types)`);
  return restored;
}

/** `schema` with every field named after an `Object.prototype` member replaced by a placeholder, at any depth. */
function withPlaceholders(schema: JSONSchema, placeholders: Placeholders): JSONSchema {
  const out: JSONSchema = { ...schema };
  if (isJsonObject(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    const renamed = new Map<string, string>();
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, child]): [string, JSONSchema] => {
        const field = withPlaceholders(child, placeholders);
        if (!PROTOTYPE_NAMES.has(key)) return [key, field];
        const placeholder = `${placeholders.prefix}${placeholders.fields.size}`;
        placeholders.fields.set(placeholder, key);
        renamed.set(key, placeholder);
        return [placeholder, OBJECT_MEMBERS.has(key) && !required.includes(key) ? orObjectMember(field, key) : field];
      }),
    );
    if (Array.isArray(schema.required)) out.required = required.map((k) => renamed.get(k) ?? k);
  }
  if (isJsonObject(schema.items)) out.items = withPlaceholders(schema.items, placeholders);
  if (isJsonObject(schema.additionalProperties)) out.additionalProperties = withPlaceholders(schema.additionalProperties, placeholders);
  if (Array.isArray(schema.anyOf)) out.anyOf = schema.anyOf.map((s) => withPlaceholders(s, placeholders));
  return out;
}

/** The field's schema or the `Object` member of its name, keeping its description (with a note). */
function orObjectMember(field: JSONSchema, key: string): JSONSchema {
  const { description, ...type } = field;
  const note = `Also typed as \`Object\`'s own \`${key}\`, which TypeScript gives every object, so that objects without this field fit.`;
  return { description: description !== undefined ? `${description}\n\n${note}` : note, anyOf: [type, { tsType: `globalThis.Object[${JSON.stringify(key)}]` }] };
}
