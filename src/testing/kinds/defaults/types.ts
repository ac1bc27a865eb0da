/**
 * Shapes shared by the per-kind default tables: what a kind's module provides and what the
 * create-time defaults may ask of the cluster.
 */
import type { KubeObject } from "../../resource-type.ts";
import type { RuleContext } from "../../rule-context.ts";

/** A decoded JSON object being defaulted in place. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

/**
 * What create-time defaults (registry strategies and admission plugins) may need beyond the
 * rule context: the node ports in use and lookups of other stored objects. Every member is optional so
 * the functions also run without a cluster (unit tests).
 */
export interface DefaultingContext extends RuleContext {
  /** Node ports held by stored Services (any namespace). */
  usedNodePorts?(): ReadonlySet<number>;
  /** A stored object by storage key (`/serviceaccounts`, `scheduling.k8s.io/priorityclasses`), namespace ("" if cluster scoped) and name. */
  lookup?(storageKey: string, namespace: string, name: string): KubeObject | undefined;
  /** Every stored object of a storage key. */
  list?(storageKey: string): KubeObject[];
}

/** The defaults of one kind, as kube-apiserver applies them. */
export interface KindDefaults {
  /**
   * `SetDefaults_*` of the kind's versioned type and what its encoding always shows: applied
   * whenever a body is decoded (create, update, patch, apply), so these fields are in the
   * writer's managedFields.
   */
  decode?(obj: Obj, version: string): void;
  /**
   * The registry strategy's PrepareForCreate and the admission plugins: applied once, to a new
   * object, after its managedFields are computed (so they are not in them).
   */
  create?(obj: Obj, ctx: DefaultingContext, version: string): void;
}

/** `obj[key]`, created as `{}` when it is not an object. */
export function child(obj: Obj, key: string): Obj {
  const v = obj[key];
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Obj;
  const created: Obj = {};
  obj[key] = created;
  return created;
}

/** `obj[key]` when it is a plain object. */
export function objectAt(obj: Obj | undefined, key: string): Obj | undefined {
  const v = obj?.[key];
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** The plain-object items of `obj[key]` (none when it is not a list). */
export function itemsAt(obj: Obj | undefined, key: string): Obj[] {
  const v = obj?.[key];
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === "object" && !Array.isArray(x)) as Obj[]) : [];
}

/** Sets `obj[key] = value` when the field is absent (undefined or null, as Go's nil). */
export function orDefault(obj: Obj, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** Sets `obj[key] = value` when the field is absent or the empty string (Go's zero string). */
export function orDefaultString(obj: Obj, key: string, value: string): void {
  if (obj[key] === undefined || obj[key] === null || obj[key] === "") obj[key] = value;
}
