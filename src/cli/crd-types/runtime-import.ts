/**
 * How a generated module refers to the SDK: `import * as runtime from "operator-runtime"`, and
 * `runtime.defineKind`, `runtime.ObjectOf`, `runtime.ObjectMeta`. Every name the module
 * declares starts with an upper-case letter, so no kind can shadow it.
 */

/**
 * The namespace a generated module imports `operator-runtime` as.
 *
 * @example
 * ```ts
 * `export type Pinot = ${RUNTIME}.ObjectOf<typeof Pinot>;`;
 * ```
 */
export const RUNTIME = "runtime";

/**
 * The generated module's import line.
 *
 * @example
 * ```ts
 * RUNTIME_IMPORT; // 'import * as runtime from "operator-runtime";'
 * ```
 */
export const RUNTIME_IMPORT = `import * as ${RUNTIME} from "operator-runtime";`;
