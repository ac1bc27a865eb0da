/**
 * The custom-resource pipeline: what the apiserver does to a CR body before storing it.
 *
 * {@link prepareCustomResource} runs the three steps in the apiserver's order — structural
 * pruning ({@link pruneUnknownFields}), defaulting ({@link applyDefaults}), validation
 * ({@link validateAgainstSchema}) — and throws the 422 a real server would. The steps are
 * exported on their own too, with {@link schemaListType} for how CR lists merge.
 *
 * @module
 */
import type { KubeObject } from "../resource-type.ts";
import { invalid } from "../status.ts";
import { applyDefaults } from "./defaults.ts";
import { pruneUnknownFields } from "./prune.ts";
import type { JsonSchema } from "./schema-node.ts";
import { validateAgainstSchema } from "./validate.ts";

export { applyDefaults } from "./defaults.ts";
export { matchesFormat } from "./formats.ts";
export { listTypeOf, listUniquenessCauses, schemaListType } from "./list-type.ts";
export { pruneUnknownFields, unknownFieldMessage } from "./prune.ts";
export type { PruneResult } from "./prune.ts";
export type { JsonSchema } from "./schema-node.ts";
export { validateAgainstSchema } from "./validate.ts";

/** Names a custom resource in its 422 error: `Widget.example.com "foo" is invalid: …`. */
export interface CustomResourceContext {
  /** The Kind, e.g. `Pinot`. */
  kind: string;
  /** The API group, e.g. `datainfra.io`. */
  group: string;
  /** `metadata.name` (or the generateName prefix) of the object being written. */
  name: string;
}

/** What {@link prepareCustomResource} returns. */
export interface PreparedCustomResource {
  /** The pruned and defaulted object, ready to store. */
  object: KubeObject;
  /** The dropped field paths (`spec.x`), for `fieldValidation=Warn|Strict`. */
  prunedFields: string[];
}

/**
 * Prunes, defaults and validates a custom resource against its version's `openAPIV3Schema`.
 *
 * Expected flow: prune unknown fields → apply defaults → validate. `metadata` passes through
 * untouched (ObjectMeta rules are the caller's); the input is not modified.
 *
 * Errors: a `StatusError` 422 Invalid (`invalid(kind, group, name, causes)`) carrying every
 * violation as a cause, e.g.
 * `Widget.example.com "w" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`.
 * Pruned fields are never an error here: with `fieldValidation=Strict` the caller turns
 * `prunedFields` into one (see {@link unknownFieldMessage}).
 *
 * Caveats: CEL rules (`x-kubernetes-validations`) are skipped; see {@link validateAgainstSchema}.
 *
 * @example
 * const { object, prunedFields } = prepareCustomResource(body, version.schema, {
 *   kind: "Pinot", group: "datainfra.io", name: body.metadata?.name ?? "",
 * });
 */
export function prepareCustomResource(obj: KubeObject, schema: JsonSchema, ctx: CustomResourceContext): PreparedCustomResource {
  const { object: pruned, prunedFields } = pruneUnknownFields(obj, schema);
  const object = applyDefaults(pruned, schema);
  const causes = validateAgainstSchema(object, schema);
  if (causes.length > 0) throw invalid(ctx.kind, ctx.group, ctx.name, causes);
  return { object, prunedFields };
}
