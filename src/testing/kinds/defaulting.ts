/**
 * Defaulting of built-in kinds, as kube-apiserver's code (not its schemas) does it, dispatched
 * to the per-kind tables in `./defaults/`:
 * - {@link fieldDefaults}: the versioned types' `SetDefaults_*`, applied to every decoded body
 *   (create, update, the result of a patch or an apply), so a PUT or an apply that leaves a
 *   defaulted field out keeps it, and the writer's managedFields include these fields;
 * - {@link createDefaults}: the registry strategies' PrepareForCreate and the admission plugins
 *   (ServiceAccount, Priority, DefaultTolerationSeconds, StorageObjectInUseProtection, the
 *   Service IP and node port allocators), applied once to a new object after its
 *   managedFields are computed — so these fields are in no manager's set.
 */
import type { KubeObject, ResourceType } from "../resource-type.ts";
import type { RuleContext } from "../kind-rules.ts";
import type { DefaultingContext } from "./defaults/index.ts";
import { kindDefaults } from "./defaults/index.ts";
import type { Obj } from "./defaults/types.ts";
import { itemsAt, objectAt } from "./defaults/types.ts";

export type { DefaultingContext } from "./defaults/index.ts";

/**
 * Create-time defaults of a new built-in object (after its metadata — name, uid,
 * creationTimestamp — is set, and after {@link fieldDefaults}).
 */
export function createDefaults(type: ResourceType, obj: KubeObject, ctx: RuleContext | DefaultingContext): void {
  if (!type.builtin) return;
  kindDefaults(type.group, type.kind)?.create?.(obj as Obj, ctx, type.version);
}

/**
 * Field defaults of built-in kinds that kube-apiserver applies whenever it decodes a body —
 * on create, update and the result of a patch (server-side apply included).
 */
export function fieldDefaults(type: ResourceType, obj: KubeObject): void {
  if (!type.builtin) return;
  kindDefaults(type.group, type.kind)?.decode?.(obj as Obj, type.version);
}

/**
 * Defaults of list-map key fields (`protocol` of container and Service ports), for a server-side
 * apply configuration: structured-merge-diff names list items by their keys with these
 * defaults filled in, so an applied port without `protocol` is the live `TCP` port.
 */
export function keyFieldDefaults(type: ResourceType, obj: KubeObject): void {
  if (!type.builtin) return;
  const o = obj as Obj;
  if (type.group === "" && type.kind === "Service") {
    for (const p of itemsAt(objectAt(o, "spec"), "ports")) p.protocol ??= "TCP";
    return;
  }
  const spec = podSpecOf(type.kind, o);
  if (!spec) return;
  for (const c of [...itemsAt(spec, "initContainers"), ...itemsAt(spec, "containers"), ...itemsAt(spec, "ephemeralContainers")]) {
    for (const p of itemsAt(c, "ports")) p.protocol ??= "TCP";
  }
}

/** Where each kind holding a PodSpec keeps it. */
const POD_SPEC_PATHS: Readonly<Record<string, readonly string[]>> = {
  Pod: ["spec"],
  PodTemplate: ["template", "spec"],
  CronJob: ["spec", "jobTemplate", "spec", "template", "spec"],
};

/** The PodSpec of a Pod, a PodTemplate or a workload's template, if any. */
function podSpecOf(kind: string, obj: Obj): Obj | undefined {
  const path = POD_SPEC_PATHS[kind] ?? ["spec", "template", "spec"];
  let at: Obj | undefined = obj;
  for (const key of path) at = objectAt(at, key);
  return at;
}
