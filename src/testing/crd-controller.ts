/**
 * Serves the kinds of CustomResourceDefinitions: registers each served version when a CRD is
 * stored, and on CRD deletion removes every instance, ends their watches and drops discovery.
 */
import type { Change } from "./object-store.ts";
import type { ApiContext } from "./api-context.ts";
import type { ConversionPost, ConversionWebhook, KubeObject, ResourceType } from "./resource-type.ts";
import type { ServiceResolver } from "./admission/webhook-client.ts";
import { crdVersions } from "./crd/crd-validation.ts";
import { rememberScaleOfSchema, schemaListType } from "./crd/schema.ts";

const CRD_STORAGE = "apiextensions.k8s.io/customresourcedefinitions";

/**
 * The conversion webhook of a CRD whose `spec.conversion.strategy` is `Webhook`, or undefined
 * (strategy `None`, or no `webhook.clientConfig`: the CRD's validation rejects that).
 *
 * @example
 * ```ts
 * import type { KubeObject } from "./resource-type.ts";
 *
 * declare const crd: KubeObject;
 * conversionWebhookOf(crd)?.clientConfig.url; // e.g. "https://127.0.0.1:9443/convert"
 * ```
 */
export function conversionWebhookOf(crd: KubeObject, resolveService?: ServiceResolver): ConversionWebhook | undefined {
  const conversion = (crd.spec as { conversion?: unknown } | undefined)?.conversion as
    | { strategy?: unknown; webhook?: { clientConfig?: ConversionWebhook["clientConfig"]; conversionReviewVersions?: unknown } }
    | undefined;
  if (conversion?.strategy !== "Webhook" || !conversion.webhook?.clientConfig) return undefined;
  const versions = conversion.webhook.conversionReviewVersions;
  return {
    crdName: crd.metadata?.name ?? "",
    clientConfig: conversion.webhook.clientConfig,
    conversionReviewVersions: Array.isArray(versions) ? versions.filter((v): v is string => typeof v === "string") : [],
    ...(resolveService ? { resolveService } : {}),
  };
}

/** Types for every served version of a CRD (a conversion webhook without a service resolver). */
export function typesOfCrd(crd: KubeObject): ResourceType[] {
  const spec = crd.spec as {
    group: string;
    scope: string;
    names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  };
  const versions = crdVersions(crd);
  const storage = versions.find((v) => v.storage)?.name;
  const storageKey = `${spec.group}/${spec.names.plural}`;
  const conversion = conversionWebhookOf(crd);
  const storedVersions = (crd.status as { storedVersions?: unknown } | undefined)?.storedVersions;
  const mixed = Array.isArray(storedVersions) && storedVersions.some((v) => v !== storage);
  // Writes validate the scale paths along with the schema (see prepareCustomResource).
  for (const v of versions) rememberScaleOfSchema(v.schema, v.scale);
  return versions.map((v) => ({
    group: spec.group,
    version: v.name,
    kind: spec.names.kind,
    plural: spec.names.plural,
    singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
    namespaced: spec.scope === "Namespaced",
    shortNames: spec.names.shortNames ?? [],
    categories: spec.names.categories ?? [],
    verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
    status: v.statusSubresource,
    scale: v.scale,
    builtin: false,
    hasGeneration: true,
    requireResourceVersion: true,
    storageKey,
    printerColumns: v.printerColumns,
    schema: v.schema as Record<string, unknown> | undefined,
    listType: v.schema ? schemaListType(v.schema as never) : () => ({ type: "atomic" }),
    ...(storage && storage !== v.name ? { storageVersion: storage } : {}),
    ...(spec.names.listKind && spec.names.listKind !== `${spec.names.kind}List` ? { listKind: spec.names.listKind } : {}),
    ...(mixed ? { mixedStorageVersions: true } : {}),
    ...(conversion ? { conversion } : {}),
  }));
}

/** How CRDs' conversion webhooks are called (see {@link watchCrds}). */
export interface CrdServingOptions {
  /** Where `service` references of conversion webhooks are reached (LocalCluster's `webhookServices`). */
  resolveService?: ServiceResolver;
  /** Makes conversion webhook calls (so injected webhook faults apply); `postReview` by default. */
  post?: ConversionPost;
}

/**
 * Keeps the registry in step with stored CRDs.
 *
 * @example
 * ```ts
 * import type { ApiContext } from "./api-context.ts";
 *
 * declare const ctx: ApiContext;
 * watchCrds(ctx, { resolveService: (svc) => (svc.name === "widget-webhook" ? "https://127.0.0.1:9443" : undefined) });
 * ```
 */
export function watchCrds(ctx: ApiContext, options: CrdServingOptions = {}): void {
  const { resolveService, post } = options;
  ctx.store.onChange((c: Change) => {
    if (c.object.storageKey !== CRD_STORAGE) return;
    const crd = c.object.object();
    const spec = crd.spec as { group: string; names: { plural: string } };
    const storageKey = `${spec.group}/${spec.names.plural}`;
    if (c.type === "DELETED") {
      // Defer: this runs inside the store's notification of the CRD's own deletion.
      queueMicrotask(() => {
        for (const o of ctx.store.list(storageKey)) ctx.store.remove(o);
        ctx.hub.closeAll(false, storageKey);
        ctx.registry.removeStorage(storageKey);
        ctx.store.dropStorage(storageKey);
      });
      return;
    }
    if (crd.metadata?.deletionTimestamp) return;
    ctx.registry.removeStorage(storageKey);
    for (const t of typesOfCrd(crd)) {
      const conversion = t.conversion && {
        ...t.conversion,
        ...(resolveService ? { resolveService } : {}),
        ...(post ? { post } : {}),
      };
      ctx.registry.add(conversion ? { ...t, conversion } : t);
    }
  });
}
