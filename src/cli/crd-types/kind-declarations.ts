/**
 * The TypeScript of one CRD for `gen types`: per served version, the spec and status types
 * from its schema and the kind handle the SDK takes.
 */
import type { JSONSchema } from "json-schema-to-typescript";
import { isJsonObject } from "./crd-source.ts";
import type { CrdSource, CrdVersionSource, JsonObject } from "./crd-source.ts";
import { toJsonSchema } from "./structural-schema.ts";
import type { SchemaImports } from "./structural-schema.ts";

/** Compiles a JSON schema into a TypeScript declaration named `name` (json-schema-to-typescript). */
export type CompileSchema = (schema: JSONSchema, name: string) => Promise<string>;

/** What the generated module imports from `operator-runtime`. */
export interface RuntimeImports extends SchemaImports {
  defineKind: boolean;
  kindFromModel: boolean;
}

/** The declarations of one CRD. */
export interface KindDeclarations {
  crd: CrdSource;
  /** The exported names, in order. */
  names: string[];
  /** The TypeScript, without imports. */
  code: string;
  imports: RuntimeImports;
}

/** The members `CustomResource` (what `defineKind` types) already has. */
const RESOURCE_FIELDS = new Set(["apiVersion", "kind", "metadata", "spec", "status"]);

/**
 * A kind or version as part of a TypeScript name, the way json-schema-to-typescript spells names
 * (so the declarations it writes are named as asked): `my-kind` → `MyKind`, `v1beta1` →
 * `V1Beta1` (a letter after a digit is upper-cased).
 */
const pascal = (name: string): string =>
  name
    .replace(/-+([a-zA-Z]?)/g, (_m, c: string) => c.toUpperCase())
    .replace(/\d[a-z]/g, (m) => m.toUpperCase())
    .replace(/^[a-z]/, (c) => c.toUpperCase());

/** Text for a `/** … *\/` comment: every line prefixed, and no early `*\/`. */
function tsdoc(lines: readonly string[]): string {
  const body = lines.join("\n").replaceAll("*/", "*\\/").split("\n");
  return ["/**", ...body.map((l) => (l === "" ? " *" : ` * ${l}`)), " */"].join("\n");
}

/** The version named after the kind: the storage version when it is served, else the first served one. */
function primaryVersion(crd: CrdSource): CrdVersionSource | undefined {
  const served = crd.versions.filter((v) => v.served);
  return served.find((v) => v.storage) ?? served[0];
}

/**
 * The declarations for every served version of `crd`, in the CRD's order. The storage version
 * (or, when it is not served, the first served one) is named after the kind (`Pinot`,
 * `PinotSpec`, `PinotStatus`); each other served version adds its name (`PinotV1Alpha1`,
 * `PinotV1Alpha1Spec`, …).
 *
 * Per version: `<Name>Spec` and `<Name>Status` from the schema's `spec` and `status` (see
 * {@link toJsonSchema}), then the handle. When the schema's root has only `spec`, `status` and
 * the object meta fields, the handle is `defineKind<Spec, Status>` and `type <Name> =
 * ObjectOf<typeof <Name>>`. A status the schema lacks is `never` (the API server would drop
 * it); a spec or status the schema lacks under a root that keeps unknown fields is
 * `{ [k: string]: unknown }`. When the root has other fields (`data`, …) or no spec, the whole
 * object is `<Name>Resource` and the handle is `kindFromModel<<Name>Resource>`.
 *
 * @example
 * ```ts
 * const { code, names } = await kindDeclarations(crd, (schema, name) => compile(schema, name, options));
 * names; // ["PinotSpec", "PinotStatus", "Pinot"]
 * ```
 */
export async function kindDeclarations(crd: CrdSource, compile: CompileSchema): Promise<KindDeclarations> {
  const primary = primaryVersion(crd);
  const out: KindDeclarations = {
    crd,
    names: [],
    code: "",
    imports: { objectMeta: false, defineKind: false, kindFromModel: false },
  };
  const parts: string[] = [];
  for (const version of crd.versions.filter((v) => v.served)) {
    const name = version === primary ? pascal(crd.kind) : `${pascal(crd.kind)}${pascal(version.name)}`;
    parts.push(await versionDeclarations(crd, version, name, compile, out));
  }
  out.code = parts.join("\n\n");
  return out;
}

/** One version's declarations; adds its names and imports to `out`. */
async function versionDeclarations(
  crd: CrdSource,
  version: CrdVersionSource,
  name: string,
  compile: CompileSchema,
  out: KindDeclarations,
): Promise<string> {
  const root = version.schema;
  const properties = isJsonObject(root["properties"]) ? root["properties"] : {};
  const keepsUnknown = root["x-kubernetes-preserve-unknown-fields"] === true;
  const apiVersion = `${crd.group}/${version.name}`;
  const parts: string[] = [];

  /** `<name><part>` from the schema's `key`, a bag when the root keeps unknown fields, else undefined. */
  const member = async (key: "spec" | "status", part: string): Promise<string | undefined> => {
    const typeName = `${name}${part}`;
    let schema: JSONSchema;
    if (Object.hasOwn(properties, key)) schema = toJsonSchema(properties[key], out.imports);
    else if (keepsUnknown) {
      const description = `Not described by the schema of \`${apiVersion}\` ${crd.kind}, which keeps unknown fields: any JSON object.`;
      schema = { type: "object", additionalProperties: true, description };
    } else return undefined;
    parts.push(await declaration(compile, schema, typeName, crd.origin));
    out.names.push(typeName);
    return typeName;
  };
  const spec = await member("spec", "Spec");
  const status = await member("status", "Status");

  const extras = Object.keys(properties).filter((k) => !RESOURCE_FIELDS.has(k));
  const description = typeof root["description"] === "string" ? root["description"].trim() : "";
  const scope = crd.scope === "Cluster" ? "cluster-scoped" : "namespaced";
  const about = [
    ...(description !== "" ? [description, ""] : []),
    `The handle of \`${apiVersion}\` ${crd.kind} (${scope}, resource \`${crd.plural}\`)${version.storage ? ", the storage version" : ""}.`,
    ...(version.deprecation !== undefined ? [`@deprecated ${version.deprecation}`] : []),
  ];
  const ref = `{\n  apiVersion: ${JSON.stringify(apiVersion)},\n  kind: ${JSON.stringify(crd.kind)},\n}`;
  let handle: string;
  if (spec !== undefined && extras.length === 0) {
    out.imports.defineKind = true;
    handle = `export const ${name} = defineKind<${spec}, ${status ?? "never"}>(${ref});`;
  } else {
    const resourceName = `${name}Resource`;
    const resource: JSONSchema = {
      type: "object",
      description:
        `The whole \`${apiVersion}\` ${crd.kind} object` +
        `${extras.length > 0 ? `, with ${extras.join(", ")} at the top level` : ""}${spec === undefined ? "; its schema has no spec" : ""}.`,
      properties: Object.fromEntries([
        ["apiVersion", { type: "string" }],
        ["kind", { type: "string" }],
        ["metadata", { tsType: "ObjectMeta" }],
        ...(spec !== undefined ? [["spec", { tsType: spec }]] : []),
        ...(status !== undefined ? [["status", { tsType: status }]] : []),
        ...extras.map((k) => [k, toJsonSchema(properties[k], out.imports)]),
      ]),
      required: [
        ...(spec !== undefined ? ["spec"] : []),
        ...(Array.isArray(root["required"]) ? root["required"].filter((k): k is string => typeof k === "string" && extras.includes(k)) : []),
      ],
      additionalProperties: keepsUnknown,
    };
    parts.push(await declaration(compile, resource, resourceName, crd.origin));
    out.names.push(resourceName);
    out.imports.objectMeta = true;
    out.imports.kindFromModel = true;
    handle = `export const ${name} = kindFromModel<${resourceName}>(${ref});`;
  }
  parts.push(`${tsdoc(about)}\n${handle}\n/** The object type of \`${apiVersion}\` ${crd.kind}. */\nexport type ${name} = ObjectOf<typeof ${name}>;`);
  out.names.push(name);
  return parts.join("\n\n");
}

/** Compiles one declaration and checks the library declared exactly `name`. */
async function declaration(compile: CompileSchema, schema: JSONSchema, name: string, origin: string): Promise<string> {
  const code = (await compile(schema, name)).trim();
  const declared = [...code.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
  if (declared.length !== 1 || declared[0] !== name) {
    throw new Error(`${origin}: json-schema-to-typescript declared ${declared.join(", ") || "nothing"} for ${name}`);
  }
  return code;
}
