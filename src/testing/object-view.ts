/**
 * Converts between the stored form of an object and the version/group it is requested at:
 * CR versions share one storage (apiVersion rewritten for conversion strategy `None`, a
 * ConversionReview to the CRD's webhook for `Webhook`), events.k8s.io/v1 Events are a view of
 * core/v1 Events.
 */
import type { KubeObject, ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import type { StoredObject } from "./object-store.ts";
import { coreToEventsV1, eventsV1ToCore } from "./views/events.ts";
import { convertByWebhook } from "./conversion/webhook-converter.ts";

/** The apiVersion objects of this type are stored at. */
export function storageApiVersion(type: ResourceType): string {
  if (type.storageKey === "events") return "v1";
  return apiVersionOf({ group: type.group, version: type.storageVersion ?? type.version });
}

/**
 * Whether a type's view may differ from its stored form: another version than the storage
 * version, or a CRD whose objects may still be stored at an older version.
 */
export function needsConversion(type: ResourceType): boolean {
  return type.mixedStorageVersions === true || storageApiVersion(type) !== apiVersionOf(type);
}

/** The stored object as JSON in `type`'s view (strategy `None`: see {@link renderViewAsync}). */
export function renderView(type: ResourceType, stored: StoredObject): string {
  if (!needsConversion(type)) return stored.json;
  const obj = stored.object();
  const view = toView(type, obj);
  return view === obj ? stored.json : JSON.stringify(view);
}

/** A stored-form object converted to `type`'s view (strategy `None`: see {@link toViewAsync}). */
export function toView(type: ResourceType, obj: KubeObject): KubeObject {
  if (!needsConversion(type)) return obj;
  if (type.group === "events.k8s.io") return coreToEventsV1(obj);
  const apiVersion = apiVersionOf(type);
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}

/** An object in `type`'s view converted to the stored form (strategy `None`: see {@link fromViewAsync}). */
export function fromView(type: ResourceType, obj: KubeObject): KubeObject {
  if (!needsConversion(type)) return obj;
  if (type.group === "events.k8s.io") return eventsV1ToCore(obj);
  const apiVersion = storageApiVersion(type);
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}

/**
 * Whether reading or writing `type` may call a conversion webhook (its CRD's strategy is
 * `Webhook`); handlers keep their synchronous path otherwise.
 *
 * @example
 * ```ts
 * import type { ResourceType } from "./resource-type.ts";
 *
 * declare const type: ResourceType;
 * if (!convertsByWebhook(type)) console.log("apiVersion rewrite only");
 * ```
 */
export function convertsByWebhook(type: ResourceType): boolean {
  return type.conversion !== undefined;
}

/**
 * A stored-form object converted to `type`'s view, calling the CRD's conversion webhook when
 * its strategy is `Webhook` and the object is stored at another version (otherwise as
 * {@link toView}). Every handler converts through this.
 *
 * @throws {ConversionFailure} (500) when the webhook fails, with kube-apiserver's message.
 * @example
 * ```ts
 * import type { KubeObject, ResourceType } from "./resource-type.ts";
 *
 * declare const type: ResourceType; // example.com/v1alpha1, stored at v1
 * declare const stored: KubeObject;
 * const view = await toViewAsync(type, stored); // apiVersion example.com/v1alpha1
 * ```
 */
export async function toViewAsync(type: ResourceType, obj: KubeObject): Promise<KubeObject> {
  if (!type.conversion) return toView(type, obj);
  const apiVersion = apiVersionOf(type);
  if (obj.apiVersion === apiVersion) return obj;
  return (await convertByWebhook(type.conversion, [obj], apiVersion))[0]!;
}

/**
 * Stored-form objects converted to `type`'s view, in order: with a conversion webhook, the
 * objects not at the view's version go in one review (see {@link convertByWebhook}).
 *
 * @throws {ConversionFailure} (500) when the webhook fails, with kube-apiserver's message.
 * @example
 * ```ts
 * import type { KubeObject, ResourceType } from "./resource-type.ts";
 *
 * declare const type: ResourceType;
 * declare const items: KubeObject[];
 * const views = await toViewsAsync(type, items);
 * ```
 */
export async function toViewsAsync(type: ResourceType, objs: readonly KubeObject[]): Promise<KubeObject[]> {
  if (!type.conversion) return objs.map((o) => toView(type, o));
  return convertByWebhook(type.conversion, objs, apiVersionOf(type));
}

/**
 * An object in `type`'s view converted to the stored form (see {@link toViewAsync}); a body
 * without apiVersion is taken to be at `type`'s version.
 *
 * @throws {ConversionFailure} (500) when the webhook fails, with kube-apiserver's message.
 * @example
 * ```ts
 * import type { KubeObject, ResourceType } from "./resource-type.ts";
 *
 * declare const type: ResourceType;
 * declare const body: KubeObject; // at example.com/v1alpha1
 * const stored = await fromViewAsync(type, body); // apiVersion example.com/v1
 * ```
 */
export async function fromViewAsync(type: ResourceType, obj: KubeObject): Promise<KubeObject> {
  if (!type.conversion) return fromView(type, obj);
  const target = storageApiVersion(type);
  if (obj.apiVersion === target) return obj;
  const sent = obj.apiVersion ? obj : { ...obj, apiVersion: apiVersionOf(type) };
  if (sent.apiVersion === target) return sent;
  return (await convertByWebhook(type.conversion, [sent], target))[0]!;
}

/**
 * The stored object as JSON in `type`'s view, through the conversion webhook when there is
 * one (see {@link toViewAsync}); the stored text itself when nothing changes.
 *
 * @throws {ConversionFailure} (500) when the webhook fails, with kube-apiserver's message.
 * @example
 * ```ts
 * import type { ResourceType } from "./resource-type.ts";
 * import type { StoredObject } from "./object-store.ts";
 *
 * declare const type: ResourceType;
 * declare const stored: StoredObject;
 * const json = await renderViewAsync(type, stored);
 * ```
 */
export async function renderViewAsync(type: ResourceType, stored: StoredObject): Promise<string> {
  if (!type.conversion) return renderView(type, stored);
  const obj = stored.object();
  const view = await toViewAsync(type, obj);
  return view === obj ? stored.json : JSON.stringify(view);
}
