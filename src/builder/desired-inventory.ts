/**
 * The desired inventory of one Builder pass: what this reconcile wants to exist, keyed by
 * `apiVersion/kind/namespace/name`, so that anything else the owner controls can be pruned.
 */
import type { KindRef, KubeObject } from "../client/types.ts";
import { checkKubeObject, checkObject } from "../util/check-args.ts";

/** An inventory entry. */
export interface InventoryEntry extends KindRef {
  name: string;
  namespace?: string;
}

/**
 * What one reconcile desires. Kinds are compared by group and kind (not version), so an object
 * served at two versions is one object.
 */
export class DesiredInventory {
  #entries = new Map<string, InventoryEntry>();

  /** Records a desired object. Returns false when it was already recorded (a duplicate). */
  add(obj: KubeObject): boolean {
    checkKubeObject("DesiredInventory.add(obj)", "obj", obj);
    const entry: InventoryEntry = {
      apiVersion: obj.apiVersion!,
      kind: obj.kind!,
      name: obj.metadata!.name!,
      ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}),
    };
    const key = groupKindKey(entry);
    if (this.#entries.has(key)) return false;
    this.#entries.set(key, entry);
    return true;
  }

  /** Whether an object (live, any version of its group) is desired. */
  has(obj: { apiVersion?: string | undefined; kind?: string | undefined; metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined }): boolean {
    checkObject("DesiredInventory.has(obj)", "obj", obj, "a Kubernetes object");
    return this.#entries.has(
      groupKindKey({ apiVersion: obj.apiVersion ?? "", kind: obj.kind ?? "", name: obj.metadata?.name ?? "", namespace: obj.metadata?.namespace }),
    );
  }

  /** Every desired object. */
  entries(): InventoryEntry[] {
    return [...this.#entries.values()];
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The group of an apiVersion ("" for core). */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf("/");
  return i < 0 ? "" : apiVersion.slice(0, i);
}

function groupKindKey(e: { apiVersion: string; kind: string; name: string; namespace?: string | undefined }): string {
  return `${groupOf(e.apiVersion)}/${e.kind}/${e.namespace ?? ""}/${e.name}`;
}
