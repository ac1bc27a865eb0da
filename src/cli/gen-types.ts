/**
 * `operator-runtime gen types CRD.yaml… [--out DIR]`: TypeScript types and kind handles for
 * the custom resources of CustomResourceDefinition files. The pieces live in `crd-types/`:
 * reading CRDs (`crd-source.ts`) and refusing what no CRD may hold (`schema-checks.ts`), their
 * schemas as JSON schema (`structural-schema.ts`), one CRD's declarations
 * (`kind-declarations.ts`) and the module (`types-module.ts`); json-schema-to-typescript writes
 * the interfaces (`schema-compiler.ts`), and CRD text is escaped where it lands
 * (`untrusted-text.ts`). A CRD is untrusted data: no reference in it is followed, nothing is
 * read or fetched for it, and none of its text can end a comment or a string.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { CrdSource } from "./crd-types/crd-source.ts";
import { readCrdFile } from "./crd-types/crd-source.ts";
import { CrdTypesError } from "./crd-types/crd-types-error.ts";
import { kindDeclarations } from "./crd-types/kind-declarations.ts";
import type { KindDeclarations } from "./crd-types/kind-declarations.ts";
import { schemaCompiler } from "./crd-types/schema-compiler.ts";
import { typesModule } from "./crd-types/types-module.ts";
import type { GenCommand } from "./gen-command.ts";
import { UsageError } from "./usage-error.ts";

/** `operator-runtime gen types --help`. */
export const GEN_TYPES_USAGE = `usage: operator-runtime gen types CRD.yaml... [--out DIR]

Generates TypeScript for the custom resources of CustomResourceDefinition files. For each served
version: the spec and status types from its OpenAPI schema (descriptions as TSDoc, required and
optional fields, enums as unions, int-or-string as number | string, preserve-unknown-fields as
an index signature) and the kind handle the client, cache, Manager and Builder take:

  import * as runtime from "operator-runtime";
  export const Pinot = runtime.defineKind<PinotSpec, PinotStatus>({ apiVersion: "datainfra.io/v1beta1", kind: "Pinot" });
  export type Pinot = runtime.ObjectOf<typeof Pinot>;

The storage version gets the kind's own names (K8sGPT, K8sGPTSpec, K8sGPTStatus; a lower-case
first letter is upper-cased and "-" dropped: my-kind gives MyKind); every other served version
adds its name with its first letter and each letter after a digit upper-cased (v1alpha1 gives
PinotV1Alpha1, PinotV1Alpha1Spec, ...). A schema with top-level fields besides spec and status
(data, ...) gets <Kind>Resource, the whole object, and a kindFromModel handle. A file may hold
several YAML documents, or a List; documents that are not CRDs are skipped, with a note on
stderr. A CRD is read as untrusted data: a $ref anywhere in a schema is refused (Kubernetes
forbids it; gen types never reads a file or fetches a URL for one), and its text (field
names, descriptions, enum values) is escaped wherever it lands in the generated code.

options:
  --out DIR   write one module per CRD, DIR/<plural>.<group>.ts (replacing it), and print each
              path; without --out, one module with every CRD goes to stdout
  -h, --help  print this help

Exit codes: 0 done, 1 a file could not be read or holds no usable CRD (names the API server
would refuse and a $ref included; one line naming the file and the field), 2 a bad command line.`;

/** What `gen types` was asked to do. */
export interface GenTypesOptions {
  /** The CRD files, as given. */
  files: string[];
  /** The folder to write one module per CRD into; undefined for stdout. */
  out?: string;
}

/**
 * Reads `gen types`' arguments; `undefined` when `--help` asks for the usage instead.
 *
 * @throws {UsageError} for an unknown option, `--out` without a folder, or no file.
 * @example
 * ```ts
 * parseGenTypesArgs(["crds/pinot.yaml", "--out", "src/types"]);
 * // { files: ["crds/pinot.yaml"], out: "src/types" }
 * ```
 */
export function parseGenTypesArgs(args: readonly string[]): GenTypesOptions | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { out: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  if (positionals.length === 0) throw new UsageError("gen types needs at least one CRD file");
  if (values.out === "") throw new UsageError("--out needs a folder");
  return { files: positionals, ...(values.out !== undefined ? { out: values.out } : {}) };
}

/**
 * Generates the types of every CRD in `options.files`: to `print` as one module, or with `out`
 * one module per CRD, `<out>/<plural>.<group>.ts`, printing each path written. Skipped
 * documents (not CRDs) are reported through `note`.
 *
 * @throws {CrdTypesError} for a file that cannot be read or holds no usable CRD, a CRD given
 *   twice, or (one module) two CRDs whose names clash.
 * @example
 * ```ts
 * await generateTypes({ files: ["crds/pinot.yaml"], out: "src/types" });
 * // wrote src/types/pinots.datainfra.io.ts (Pinot: v1beta1)
 * ```
 */
export async function generateTypes(
  options: GenTypesOptions,
  print: (text: string) => void = (t) => process.stdout.write(t),
  note: (line: string) => void = console.error,
): Promise<void> {
  const crds: CrdSource[] = [];
  for (const file of options.files) {
    const { crds: found, skipped } = await readCrdFile(file);
    for (const s of skipped) note(`operator-runtime gen types: skipped ${s.origin}: a ${s.kind}, not a CustomResourceDefinition`);
    for (const crd of found) {
      const twice = crds.find((c) => c.name === crd.name);
      if (twice) throw new CrdTypesError(`${crd.origin}: CRD ${crd.name} is given twice (also in ${twice.origin})`);
      crds.push(crd);
    }
  }
  const compile = await schemaCompiler();
  const declarations: KindDeclarations[] = [];
  for (const crd of crds) declarations.push(await kindDeclarations(crd, compile));
  if (options.out === undefined) {
    print(typesModule(declarations));
    return;
  }
  try {
    await mkdir(options.out, { recursive: true });
  } catch (err) {
    throw new CrdTypesError(`cannot create --out folder ${options.out}: ${(err as Error).message}`, { cause: err });
  }
  for (const d of declarations) {
    const path = join(options.out, `${d.crd.name}.ts`);
    // The CRD's name is checked (a DNS subdomain), so this holds; it is checked again before writing.
    if (dirname(resolve(path)) !== resolve(options.out)) {
      throw new CrdTypesError(`${d.crd.origin}: CRD name ${d.crd.name} would write ${path}, outside --out ${options.out}`);
    }
    const text = typesModule([d]);
    try {
      await writeFile(path, text);
    } catch (err) {
      throw new CrdTypesError(`cannot write ${path}: ${(err as Error).message}`, { cause: err });
    }
    const versions = d.crd.versions.filter((v) => v.served).map((v) => v.name);
    print(`wrote ${path} (${d.crd.kind}: ${versions.join(", ")})\n`);
  }
}

/**
 * The `gen types` entry of `GEN_COMMANDS`: parses the arguments, generates, and turns a
 * {@link CrdTypesError} into its message on stderr and exit code 1.
 *
 * @example
 * ```ts
 * const code = await genTypes.run(["crds/pinot.yaml", "--out", "src/types"]); // 0
 * ```
 */
export const genTypes: GenCommand = {
  summary: "TypeScript types and kind handles from CRD files",
  usage: GEN_TYPES_USAGE,
  async run(args) {
    const options = parseGenTypesArgs(args);
    if (options === undefined) {
      console.log(GEN_TYPES_USAGE);
      return 0;
    }
    try {
      await generateTypes(options);
      return 0;
    } catch (err) {
      if (!(err instanceof CrdTypesError)) throw err;
      console.error(`operator-runtime gen types: ${err.message}`);
      return 1;
    }
  },
};
