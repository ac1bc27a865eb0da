/**
 * The TypeScript of one CRD for `gen types`: per served version, the spec and status types
 * from its schema and the kind handle the SDK takes.
 */
import type { JSONSchema } from "json-schema-to-typescript";
import { isJsonObject } from "./crd-source.ts";
import type { CrdSource, CrdVersionSource } from "./crd-source.ts";
import { CrdTypesError } from "./crd-types-error.ts";
import { declaration } from "./declaration.ts";
import type { CompileSchema } from "./declaration.ts";
import { RUNTIME } from "./runtime-import.ts";
import { toJsonSchema } from "./structural-schema.ts";
import { commentText } from "./untrusted-text.ts";

/** The declarations of one CRD. */
export interface KindDeclarations {
  crd: CrdSource;
  /** The exported names, in order. */
  names: string[];
  /** The TypeScript, without the import. */
  code: string;
}

/** The members `CustomResource` (what `defineKind` types) already has. */
const RESOURCE_FIELDS = new Set(["apiVersion", "kind", "metadata", "spec", "status"]);

/**
 * A kind as a TypeScript name: as it is, with its first letter upper-cased and each `-` dropped
 * and the letter after it upper-cased (`K8sGPT` → `K8sGPT`, `my-kind` → `MyKind`). Every
 * generated name starts with an upper-case letter, so none is the module's `runtime` import.
 */
const kindName = (kind: string): string => kind.replace(/-+([a-zA-Z]?)/g, (_m, c: string) => c.toUpperCase()).replace(/^[a-z]/, (c) => c.toUpperCase());

/**
 * A version name as a suffix: its first letter and each letter after a digit upper-cased, each
 * `-` dropped and the letter after it upper-cased (`v1alpha1` → `V1Alpha1`, `v2` → `V2`).
 */
const versionSuffix = (version: string): string =>
  version
    .replace(/-+([a-z]?)/g, (_m, c: string) => c.toUpperCase())
    .replace(/\d[a-z]/g, (m) => m.toUpperCase())
    .replace(/^[a-z]/, (c) => c.toUpperCase());

/** Text for a `/** … *\/` comment: every line prefixed, and no early `*\/` (see {@link commentText}). */
function tsdoc(lines: readonly string[]): string {
  const body = commentText(lines.join("\n")).split("\n");
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
 * `PinotSpec`, `PinotStatus`; see {@link kindName}); each other served version adds its name
 * (`PinotV1Alpha1`, `PinotV1Alpha1Spec`, …; see {@link versionSuffix}).
 *
 * Per version: `<Name>Spec` and `<Name>Status` from the schema's `spec` and `status` (see
 * {@link toJsonSchema}), then the handle. When the schema's root has only `spec`, `status` and
 * the object meta fields, the handle is `runtime.defineKind<Spec, Status>` and `type <Name> =
 * runtime.ObjectOf<typeof <Name>>`. A status the schema lacks is `never` (the API server would
 * drop it); a spec or status the schema lacks under a root that keeps unknown fields is
 * `{ [k: string]: unknown }`. When the root has other fields (`data`, …) or no spec, the whole
 * object is `<Name>Resource` and the handle is `runtime.kindFromModel<<Name>Resource>`.
 *
 * @throws {CrdTypesError} when two versions make the same name (`v1-beta1` and `v1beta1`).
 * @example
 * ```ts
 * import { readCrdFile } from "./crd-source.ts";
 * import { schemaCompiler } from "./schema-compiler.ts";
 *
 * const { crds: [crd] } = await readCrdFile("examples/pinot/crds/datainfra.io_pinots.yaml");
 * const { code, names } = await kindDeclarations(crd!, await schemaCompiler());
 * names; // ["PinotSpec", "PinotStatus", "Pinot"]
 * ```
 */
export async function kindDeclarations(crd: CrdSource, compile: CompileSchema): Promise<KindDeclarations> {
  const primary = primaryVersion(crd);
  const out: KindDeclarations = { crd, names: [], code: "" };
  const owner = new Map<string, string>();
  const parts: string[] = [];
  for (const version of crd.versions.filter((v) => v.served)) {
    const name = version === primary ? kindName(crd.kind) : `${kindName(crd.kind)}${versionSuffix(version.name)}`;
    const { code, names } = await versionDeclarations(crd, version, name, compile);
    for (const n of names) {
      const other = owner.get(n);
      if (other !== undefined) {
        throw new CrdTypesError(`${crd.origin}: versions ${other} and ${version.name} of CRD ${crd.name} both make the type ${n}; gen types cannot name them apart`);
      }
      owner.set(n, version.name);
    }
    parts.push(code);
    out.names.push(...names);
  }
  out.code = parts.join("\n\n");
  return out;
}

/** One version's declarations and the names they export. */
async function versionDeclarations(
  crd: CrdSource,
  version: CrdVersionSource,
  name: string,
  compile: CompileSchema,
): Promise<{ code: string; names: string[] }> {
  const root = version.schema;
  const properties = isJsonObject(root["properties"]) ? root["properties"] : {};
  const keepsUnknown = root["x-kubernetes-preserve-unknown-fields"] === true;
  const apiVersion = `${crd.group}/${version.name}`;
  const parts: string[] = [];
  const names: string[] = [];

  /** `<name><part>` from the schema's `key`, a bag when the root keeps unknown fields, else undefined. */
  const member = async (key: "spec" | "status", part: string): Promise<string | undefined> => {
    const typeName = `${name}${part}`;
    let schema: JSONSchema;
    if (Object.hasOwn(properties, key)) schema = toJsonSchema(properties[key]);
    else if (keepsUnknown) {
      const description = `Not described by the schema of \`${apiVersion}\` ${crd.kind}, which keeps unknown fields: any JSON object.`;
      schema = { type: "object", additionalProperties: true, description };
    } else return undefined;
    parts.push(await declaration(compile, schema, typeName, crd.origin));
    names.push(typeName);
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
    handle = `export const ${name} = ${RUNTIME}.defineKind<${spec}, ${status ?? "never"}>(${ref});`;
  } else {
    const resourceName = `${name}Resource`;
    const resource: JSONSchema = {
      type: "object",
      // The field names come from the CRD: as comment text, none can end the comment.
      description: commentText(
        `The whole \`${apiVersion}\` ${crd.kind} object` +
          `${extras.length > 0 ? `, with ${extras.join(", ")} at the top level` : ""}${spec === undefined ? "; its schema has no spec" : ""}.`,
      ),
      properties: Object.fromEntries([
        ["apiVersion", { type: "string" }],
        ["kind", { type: "string" }],
        ["metadata", { tsType: `${RUNTIME}.ObjectMeta` }],
        ...(spec !== undefined ? [["spec", { tsType: spec }]] : []),
        ...(status !== undefined ? [["status", { tsType: status }]] : []),
        ...extras.map((k) => [k, toJsonSchema(properties[k])]),
      ]),
      required: [
        ...(spec !== undefined ? ["spec"] : []),
        ...(Array.isArray(root["required"]) ? root["required"].filter((k): k is string => typeof k === "string" && extras.includes(k)) : []),
      ],
      additionalProperties: keepsUnknown,
    };
    parts.push(await declaration(compile, resource, resourceName, crd.origin));
    names.push(resourceName);
    handle = `export const ${name} = ${RUNTIME}.kindFromModel<${resourceName}>(${ref});`;
  }
  parts.push(
    `${tsdoc(about)}\n${handle}\n/** The object type of \`${apiVersion}\` ${crd.kind}. */\nexport type ${name} = ${RUNTIME}.ObjectOf<typeof ${name}>;`,
  );
  names.push(name);
  return { code: parts.join("\n\n"), names };
}
