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
import type { RuleContext } from "../rule-context.ts";
import type { DefaultingContext } from "./defaults/index.ts";
import { kindDefaults } from "./defaults/index.ts";
import type { Obj } from "./defaults/types.ts";

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
