/**
 * `operator-runtime/builder`: the Builder (also in the root entry) with everything around it —
 * its options and results, pruning an owner's objects on your own ({@link prune}, with the {@link DesiredInventory} of what is still
 * wanted), the labels and annotations it stamps on children, and the config-hash tools that
 * roll a workload when a ConfigMap or Secret it reads changes.
 *
 * @example
 * ```ts
 * import { DesiredInventory, prune, MANAGED_BY_LABEL, COMPONENT_LABEL } from "operator-runtime/builder";
 * import { ConfigMap } from "operator-runtime";
 *
 * // Keep only app-settings among the ConfigMaps the Greeting `owner` controls.
 * const wanted = new DesiredInventory();
 * wanted.add({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app-settings", namespace: "default" } });
 * const results = await prune({
 *   reader: client.reader(), deleter: client, owner, kinds: [ConfigMap], store: wanted,
 *   namespace: "default",
 *   managedBy: { key: MANAGED_BY_LABEL, value: "greeting-operator" },
 *   component: { key: COMPONENT_LABEL, value: undefined },
 *   persistentVolumeClaims: false, dryRun: true,
 * });
 * console.log(results.map((r) => `${r.kind}/${r.name}: ${r.action}`));
 * ```
 * @module
 */
export { Builder } from "../builder/builder.ts";
export type { BuilderOptions, ObjectOptions } from "../builder/options.ts";
export type { OnlyModel } from "../kinds/model-object.ts";
export type { BuilderEventRecorder } from "../controller/event-notes.ts";
export type { BuilderResult, ObjectResult, ObjectAction } from "../controller/results.ts";
export { MANAGED_BY_LABEL, DESIRED_HASH_ANNOTATION, COMPONENT_LABEL } from "../builder/desired.ts";
export { RETAINED_BY_ANNOTATION } from "../cache/retained.ts";
export { OWNER_UID_LABEL } from "../builder/owned-objects.ts";
export { DesiredInventory } from "../builder/desired-inventory.ts";
export type { InventoryEntry } from "../builder/desired-inventory.ts";
export { prune } from "../builder/prune.ts";
export type { PruneOptions, ObjectDeleter } from "../builder/prune.ts";
export { isControlledBy } from "../controller/controller-ref.ts";
export * from "../hash/index.ts";
