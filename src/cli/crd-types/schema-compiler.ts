/**
 * json-schema-to-typescript as `gen types` runs it: the options every declaration shares, and
 * references never followed outside the schema.
 */
import type { CompileSchema } from "./declaration.ts";

/**
 * The `compile` of json-schema-to-typescript with the options every generated declaration
 * shares. A schema is untrusted data: its `$ref`s to files and URLs are never resolved (the
 * `$RefParser` options turn external resolution, and the file and HTTP resolvers, off), so
 * compiling reads no file and opens no connection. `gen types` also refuses any `$ref` before
 * it gets here (see `schemaProblem`); this is the second line.
 *
 * The library is loaded on the first call, so `--help` and bad command lines do not pay for it
 * (it loads prettier).
 *
 * @example
 * ```ts
 * const compile = await schemaCompiler();
 * await compile({ type: "object", properties: { size: { type: "integer" } } }, "Spec");
 * // "export interface Spec {\n  size?: number;\n}\n"
 * ```
 */
export async function schemaCompiler(): Promise<CompileSchema> {
  const { compile } = await import("json-schema-to-typescript");
  return (schema, name) =>
    compile(schema, name, {
      bannerComment: "",
      $refOptions: { resolve: { external: false, file: false, http: false } },
      // A structural schema's object has only its properties; toJsonSchema says when it keeps more.
      additionalProperties: false,
      unknownAny: true,
      // minItems/maxItems validate; they do not make tuples.
      ignoreMinAndMaxItems: true,
      maxItems: -1,
      enableConstEnums: false,
      format: true,
      style: { printWidth: 120, tabWidth: 2, useTabs: false, semi: true, singleQuote: false, trailingComma: "all", bracketSpacing: true },
    });
}
