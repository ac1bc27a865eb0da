/**
 * Reads CustomResourceDefinitions from YAML files for `gen types`: every document of every
 * file (and every item of a `List`), checked for what type generation needs.
 */
import { readFile } from "node:fs/promises";
import { loadAll } from "js-yaml";
import { checkCrdNames } from "./crd-names.ts";
import { CrdTypesError } from "./crd-types-error.ts";
import { schemaProblem } from "./schema-checks.ts";
import { printable } from "./untrusted-text.ts";

/** A JSON object as parsed from YAML. */
export type JsonObject = Record<string, unknown>;

/** One version of a CRD, as type generation reads it. */
export interface CrdVersionSource {
  /** The version name, `v1beta1`. */
  name: string;
  served: boolean;
  storage: boolean;
  /** The `deprecationWarning`, or a default text, when the version is `deprecated`. */
  deprecation?: string;
  /** `schema.openAPIV3Schema`; always there for a served version. */
  schema: JsonObject;
}

/** A CustomResourceDefinition read from a file. */
export interface CrdSource {
  /** The file it was read from, as given. */
  file: string;
  /**
   * Where in it, for messages: `crds/app.yaml`, `crds/all.yaml (document 3)`, `… (document 1,
   * item 2)`; control characters in the file name are written as `\uXXXX` escapes.
   */
  origin: string;
  /** `<plural>.<group>`, the CRD's name. */
  name: string;
  group: string;
  kind: string;
  plural: string;
  scope: "Namespaced" | "Cluster";
  versions: CrdVersionSource[];
}

/** What one file held: its CRDs, and the documents that were something else. */
export interface CrdFile {
  crds: CrdSource[];
  /** The documents skipped because they are not CRDs: where, and their kind. */
  skipped: { origin: string; kind: string }[];
}

/**
 * Whether a parsed YAML value is an object (not an array, not null).
 *
 * @example
 * ```ts
 * isJsonObject({ type: "object" }); // true
 * isJsonObject(["a"]);              // false
 * ```
 */
export const isJsonObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads every CustomResourceDefinition in a YAML file: each document, and each item of a
 * document of kind `List` (what `kubectl get crd -o yaml` prints). Documents of other kinds are
 * skipped and reported in `skipped`; empty documents are ignored.
 *
 * @throws {CrdTypesError} when the file cannot be read, is not valid YAML, holds no CRD, holds
 *   a document that is not a Kubernetes object, or holds a CRD that is not
 *   `apiextensions.k8s.io/v1`, lacks its group, names or versions, has names the API server
 *   would refuse (see {@link checkCrdNames}), serves no version with a schema, or has a schema
 *   `gen types` refuses (a `$ref`, a loop; see {@link schemaProblem}). The message is one line
 *   naming the file, the document and, for a schema, the JSON path of the culprit.
 * @example
 * ```ts
 * const { crds } = await readCrdFile("examples/pinot/crds/datainfra.io_pinots.yaml");
 * crds[0]?.kind; // "Pinot"
 * ```
 */
export async function readCrdFile(file: string): Promise<CrdFile> {
  const shown = printable(file);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new CrdTypesError(`cannot read ${shown}: ${printable((err as Error).message)}`, { cause: err });
  }
  let documents: unknown[];
  try {
    documents = loadAll(text);
  } catch (err) {
    throw new CrdTypesError(`${shown} is not valid YAML: ${yamlProblem(err)}`, { cause: err });
  }
  const present = documents.map((doc, i) => ({ doc, where: `document ${i + 1}` })).filter(({ doc }) => doc != null);
  const label = (where: string) => (documents.length > 1 ? `${shown} (${where})` : shown);
  const out: CrdFile = { crds: [], skipped: [] };
  for (const { doc, where } of present) {
    if (isJsonObject(doc) && typeof doc["kind"] === "string" && doc["kind"].endsWith("List") && Array.isArray(doc["items"])) {
      doc["items"].forEach((item, i) => collect(item, file, `${shown} (${where}, item ${i + 1})`, out));
    } else {
      collect(doc, file, label(where), out);
    }
  }
  if (out.crds.length === 0) {
    const found = out.skipped.length > 0 ? ` (found ${out.skipped.map((s) => s.kind).join(", ")})` : "";
    throw new CrdTypesError(`${shown}: no CustomResourceDefinition in it${found}`);
  }
  return out;
}

/** Adds one document (or List item) to `out`: a CRD, or a line for `skipped`. */
function collect(doc: unknown, file: string, origin: string, out: CrdFile): void {
  if (!isJsonObject(doc) || typeof doc["kind"] !== "string" || typeof doc["apiVersion"] !== "string") {
    throw new CrdTypesError(`${origin}: not a Kubernetes object (no apiVersion and kind); expected a CustomResourceDefinition`);
  }
  if (doc["kind"] !== "CustomResourceDefinition") {
    out.skipped.push({ origin, kind: printable(doc["kind"]) });
    return;
  }
  out.crds.push(crdSource(doc, file, origin));
}

/** Checks a CRD document and reads what generation needs. */
function crdSource(doc: JsonObject, file: string, origin: string): CrdSource {
  const fail = (problem: string): never => {
    throw new CrdTypesError(`${origin}: ${problem}`);
  };
  if (doc["apiVersion"] !== "apiextensions.k8s.io/v1") {
    fail(`apiVersion ${printable(String(doc["apiVersion"]))} is not supported: convert the CRD to apiextensions.k8s.io/v1`);
  }
  const spec = isJsonObject(doc["spec"]) ? doc["spec"] : fail("the CRD has no spec");
  const names = isJsonObject(spec["names"]) ? spec["names"] : fail("the CRD has no spec.names");
  const text = (o: JsonObject, key: string, path: string): string =>
    typeof o[key] === "string" && o[key] !== "" ? o[key] : fail(`the CRD has no ${path}`);
  const group = text(spec, "group", "spec.group");
  const kind = text(names, "kind", "spec.names.kind");
  const plural = text(names, "plural", "spec.names.plural");
  const scope = spec["scope"] === "Cluster" ? "Cluster" : "Namespaced";
  const list = Array.isArray(spec["versions"]) ? spec["versions"] : fail("the CRD has no spec.versions");
  const versions = list.map((v, i): CrdVersionSource => {
    const at = `spec.versions[${i}]`;
    if (!isJsonObject(v)) return fail(`${at} is not an object`);
    const name = text(v, "name", `${at}.name`);
    const served = v["served"] === true;
    const root = isJsonObject(v["schema"]) ? v["schema"]["openAPIV3Schema"] : undefined;
    if (served && !isJsonObject(root)) fail(`version ${printable(name)} is served but has no schema.openAPIV3Schema to generate types from`);
    const problem = isJsonObject(root) ? schemaProblem(root, `${at}.schema.openAPIV3Schema`) : undefined;
    if (problem !== undefined) fail(problem);
    const version: CrdVersionSource = { name, served, storage: v["storage"] === true, schema: isJsonObject(root) ? root : {} };
    if (v["deprecated"] === true) {
      const warning = v["deprecationWarning"];
      version.deprecation = typeof warning === "string" && warning !== "" ? warning : `${group}/${name} ${kind} is deprecated.`;
    }
    return version;
  });
  const metadata = isJsonObject(doc["metadata"]) ? doc["metadata"] : {};
  const name = typeof metadata["name"] === "string" ? metadata["name"] : undefined;
  const problems = checkCrdNames({ name, group, plural, kind, versions: versions.map((v) => v.name) });
  if (problems.length > 0) fail(`${problems.join("; ")}; the API server would refuse this CRD`);
  if (!versions.some((v) => v.served)) fail("the CRD serves no version (no spec.versions[*].served: true)");
  return { file, origin, name: `${plural}.${group}`, group, kind, plural, scope, versions };
}

/** A YAML parser's error on one line: its reason and where (js-yaml's message adds a snippet of the file). */
function yamlProblem(err: unknown): string {
  const e = err as { reason?: unknown; mark?: { line?: unknown; column?: unknown }; message?: unknown };
  if (typeof e.reason !== "string") return printable(String(e.message ?? err));
  const at = typeof e.mark?.line === "number" && typeof e.mark.column === "number" ? ` (line ${e.mark.line + 1}, column ${e.mark.column + 1})` : "";
  return printable(`${e.reason}${at}`);
}
