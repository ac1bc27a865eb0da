/**
 * `operator-runtime/builder`: the Builder's parts beyond the Builder itself — pruning an owner's
 * objects on your own ({@link prune}, with the {@link DesiredInventory} of what is still
 * wanted), the labels and annotations it stamps on children, and the config-hash tools that
 * roll a workload when a ConfigMap or Secret it reads changes.
 *
 * @example
 * ```ts
 * import { DesiredInventory, prune, MANAGED_BY_LABEL } from "operator-runtime/builder";
 * import { ConfigMap } from "operator-runtime";
 *
 * const wanted = new DesiredInventory();
 * wanted.add({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app-settings", namespace: "default" } });
 * const results = await prune({
 *   reader: client.reader(), deleter: client, owner: app, kinds: [ConfigMap], store: wanted,
 *   managedBy: { key: MANAGED_BY_LABEL, value: "dataapp-operator" },
 * });
 * ```
 * @module
 */
export { Builder } from "../builder/builder.ts";
export type { BuilderOptions, ObjectOptions } from "../builder/options.ts";
export type { BuilderEventRecorder } from "../controller/event-notes.ts";
export type { BuilderResult, ObjectResult, ObjectAction } from "../controller/results.ts";
export { MANAGED_BY_LABEL, DESIRED_HASH_ANNOTATION, COMPONENT_LABEL } from "../builder/desired.ts";
export { RETAINED_BY_ANNOTATION } from "../cache/retained.ts";
export { OWNER_UID_LABEL } from "../builder/owned-objects.ts";
export { DesiredInventory } from "../builder/desired-inventory.ts";
export { prune } from "../builder/prune.ts";
export type { PruneOptions } from "../builder/prune.ts";
export { isControlledBy } from "../controller/controller-ref.ts";
export * from "../hash/index.ts";
