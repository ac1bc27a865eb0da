/**
 * Serves the kinds of CustomResourceDefinitions: registers each served version when a CRD is
 * stored, and on CRD deletion removes every instance, ends their watches and drops discovery.
 */
import type { Change } from "./object-store.ts";
import type { ApiContext } from "./api-context.ts";
import type { KubeObject, ResourceType } from "./resource-type.ts";
import { crdVersions } from "./crd/crd-validation.ts";
import { rememberScaleOfSchema, schemaListType } from "./crd/schema.ts";

const CRD_STORAGE = "apiextensions.k8s.io/customresourcedefinitions";

/** Types for every served version of a CRD. */
export function typesOfCrd(crd: KubeObject): ResourceType[] {
  const spec = crd.spec as {
    group: string;
    scope: string;
    names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  };
  const versions = crdVersions(crd);
  const storage = versions.find((v) => v.storage)?.name;
  const storageKey = `${spec.group}/${spec.names.plural}`;
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
  }));
}

/** Keeps the registry in step with stored CRDs. */
export function watchCrds(ctx: ApiContext): void {
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
    for (const t of typesOfCrd(crd)) ctx.registry.add(t);
  });
}
