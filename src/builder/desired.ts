/**
 * Turning what a caller passed to the Builder into the exact desired object: namespace, common,
 * managed-by, owner-UID and shard-bucket labels, the owner's controller reference, Secret `stringData` folded into
 * `data`, server-owned fields removed, and the desired-state hash annotation.
 */
import type { KubeObject, OwnerReference } from "../client/types.ts";
import { BuilderValidationError } from "../errors.ts";
import { hashObject } from "../hash/index.ts";
import type { SameScalar } from "./scalars.ts";
import { type ListKinds, matchingItems, POSITIONAL } from "./list-items.ts";
import { RETAINED_BY_ANNOTATION } from "../cache/retained.ts";
import { OWNER_UID_LABEL } from "./owned-objects.ts";
import { bucketOfUid, SHARD_BUCKET_LABEL } from "../cache/shard-buckets.ts";
import { setMember } from "../util/own-member.ts";
import { cloneJson } from "../util/clone-json.ts";

/** The label every object a Builder writes carries: `app.kubernetes.io/managed-by=<fieldManager>`. */
export const MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
/** The label scoping an object to one Builder `component` of its owner (absent: the owner's unnamed Builder). */
export const COMPONENT_LABEL = "operator-runtime.io/component";
/** The annotation holding the hash of the desired object, used to skip writes. */
export const DESIRED_HASH_ANNOTATION = "operator-runtime.io/desired-hash";

/** The controller ownerReference for `owner`, or a validation error naming what is missing. */
export function controllerReference(owner: KubeObject): OwnerReference | BuilderValidationError {
  const m = owner.metadata ?? {};
  const missing = [
    !owner.apiVersion && "apiVersion",
    !owner.kind && "kind",
    !m.name && "metadata.name",
    !m.uid && "metadata.uid",
  ].filter(Boolean);
  if (missing.length) {
    return new BuilderValidationError("Builder", `owner.${missing[0]}`, `the owner has no ${missing.join(", ")}`,
      "pass the owner object as read from the API server (it carries apiVersion, kind, name and uid)");
  }
  return { apiVersion: owner.apiVersion!, kind: owner.kind!, name: m.name!, uid: m.uid!, controller: true, blockOwnerDeletion: true };
}

/** Context of {@link prepareDesired}. */
export interface DesiredContext {
  ownerRef: OwnerReference;
  labels: Record<string, string>;
  managedBy: string;
  /** Namespace for namespaced kinds when the object has none. */
  namespace: string | undefined;
  namespaced: boolean;
  /** The Builder's component: its objects carry {@link COMPONENT_LABEL} with this value. */
  component: string | undefined;
  /** A PersistentVolumeClaim kept when the owner is deleted: no owner reference, the retained-by annotation instead. */
  retainPersistentVolumeClaims: boolean;
}

const SERVER_OWNED = ["uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "managedFields", "selfLink"] as const;

/** The desired object to apply (a new object; the input is not modified). */
export function prepareDesired(input: KubeObject, ctx: DesiredContext): KubeObject {
  const obj = cloneJson(input);
  delete obj.status;
  const meta = (obj.metadata ??= {});
  for (const f of SERVER_OWNED) delete meta[f];
  if (ctx.namespaced) meta.namespace ??= ctx.namespace;
  else delete meta.namespace;
  // The Builder's own labels win over the caller's: a wrong owner UID or shard bucket would hide
  // the child from its owner (its list by owner UID, the sharded replica's watch by bucket).
  meta.labels = {
    ...ctx.labels, ...meta.labels,
    [MANAGED_BY_LABEL]: ctx.managedBy, [OWNER_UID_LABEL]: ctx.ownerRef.uid, [SHARD_BUCKET_LABEL]: String(bucketOfUid(ctx.ownerRef.uid)),
  };
  if (ctx.component === undefined) delete meta.labels[COMPONENT_LABEL];
  else meta.labels[COMPONENT_LABEL] = ctx.component;
  const others = (meta.ownerReferences ?? []).filter((r) => r.uid !== ctx.ownerRef.uid);
  if (ctx.retainPersistentVolumeClaims && obj.apiVersion === "v1" && obj.kind === "PersistentVolumeClaim") {
    if (others.length) meta.ownerReferences = others;
    else delete meta.ownerReferences;
    meta.annotations = { ...meta.annotations, [RETAINED_BY_ANNOTATION]: ctx.ownerRef.uid };
  } else {
    meta.ownerReferences = [...others, ctx.ownerRef];
  }
  if (obj.kind === "Secret" && obj.apiVersion === "v1" && obj.stringData && typeof obj.stringData === "object") {
    const data = { ...(obj.data as Record<string, string> | undefined) };
    for (const [k, v] of Object.entries(obj.stringData as Record<string, unknown>)) setMember(data, k, Buffer.from(String(v), "utf8").toString("base64"));
    obj.data = data;
    delete obj.stringData;
  }
  return obj;
}

/** Sets the desired-hash annotation (the hash of everything else) and returns the hash. */
export function stampDesiredHash(obj: KubeObject): string {
  const meta = obj.metadata!;
  const annotations = { ...meta.annotations };
  delete annotations[DESIRED_HASH_ANNOTATION];
  const hash = hashObject({ ...obj, metadata: { ...meta, annotations } });
  meta.annotations = { ...annotations, [DESIRED_HASH_ANNOTATION]: hash };
  return hash;
}

/**
 * Whether every field of `desired` is present in `live` with the same value (`live` may hold
 * more: server defaults, other managers' fields and list items). A map list (by `lists`, read
 * from the live object's managedFields: see {@link listKindsOf}) holds each desired item when
 * an item with its key holds it, a set when it holds each desired value; items another manager
 * added or re-keyed are not compared. Atomic and unknown lists must have the same length and
 * match element by element. `sameScalar` decides scalar equality at a path (see
 * `scalarComparer`: quantities compare by amount only in quantity fields).
 */
export function isSubset(desired: unknown, live: unknown, sameScalar: SameScalar = (a, b) => Object.is(a, b), lists: ListKinds = POSITIONAL, path: (string | number)[] = []): boolean {
  if (Array.isArray(desired)) {
    if (!Array.isArray(live)) return false;
    const kind = lists(path.filter((s): s is string => typeof s === "string"));
    if (kind && kind.type !== "atomic") {
      return desired.every((d) => matchingItems(d, live, kind).some((i) => isSubset(d, live[i], sameScalar, lists, [...path, i])));
    }
    if (live.length !== desired.length) return false;
    return desired.every((d, i) => isSubset(d, live[i], sameScalar, lists, [...path, i]));
  }
  if (desired !== null && typeof desired === "object") {
    if (live === null || typeof live !== "object" || Array.isArray(live)) return false;
    for (const [k, v] of Object.entries(desired)) {
      if (v === undefined) continue;
      if (!isSubset(v, (live as Record<string, unknown>)[k], sameScalar, lists, [...path, k])) return false;
    }
    return true;
  }
  return desired === live || sameScalar(desired, live, path);
}
