/**
 * A hand-fed Informer: its contents change only when a test calls `add`, `update` or `delete`,
 * so a test decides exactly what a reconcile's cache shows — a cache lagging behind the API
 * server included. Synced from the start.
 */
import type { Informer, InformerEventHandler } from "../../src/entries/cache.ts";
import type { InformerSource } from "../../src/entries/controller.ts";
import type { Kind, KubeObject } from "../../src/index.ts";

const keyOf = (o: KubeObject) => `${o.metadata?.namespace ?? ""}/${o.metadata?.name ?? ""}`;

export class FakeInformer<T extends KubeObject = KubeObject> implements Informer<T> {
  readonly kind = { apiVersion: "v1", kind: "Pod" };
  readonly namespace = undefined;
  readonly #objects = new Map<string, T>();
  readonly #handlers = new Set<InformerEventHandler<T>>();

  addEventHandler(handler: InformerEventHandler<T>): () => void {
    this.#handlers.add(handler);
    for (const o of this.#objects.values()) handler.add?.(o, true);
    return () => void this.#handlers.delete(handler);
  }
  synced(): Promise<void> {
    return Promise.resolve();
  }
  hasSynced(): boolean {
    return true;
  }
  isStale(): boolean {
    return false;
  }
  get(name: string, namespace?: string): T | undefined {
    return this.#objects.get(`${namespace ?? ""}/${name}`);
  }
  list(namespace?: string): T[] {
    return [...this.#objects.values()].filter((o) => namespace === undefined || o.metadata?.namespace === namespace);
  }
  addIndex(): void {}
  byIndex(): T[] {
    return [];
  }
  lastSyncResourceVersion(): string {
    return "";
  }

  /** Shows a new object (an ADDED event). */
  add(obj: T): void {
    this.#objects.set(keyOf(obj), obj);
    for (const h of this.#handlers) h.add?.(obj, false);
  }
  /** Shows a changed object (a MODIFIED event). */
  update(obj: T): void {
    const old = this.#objects.get(keyOf(obj));
    this.#objects.set(keyOf(obj), obj);
    for (const h of this.#handlers) old ? h.update?.(old, obj) : h.add?.(obj, false);
  }
  /** Forgets an object (a DELETED event). */
  delete(obj: T): void {
    this.#objects.delete(keyOf(obj));
    for (const h of this.#handlers) h.delete?.(obj);
  }
}

/**
 * An InformerSource handing out FakeInformers: `informer` for every kind, or one per kind name
 * (`{ Pod: pods, PodSet: sets }`; a kind not named is an error).
 */
export function fakeSource(informers: FakeInformer<any> | Record<string, FakeInformer<any>>): InformerSource {
  return {
    informer: <T extends KubeObject>(kind: Kind<T>) => {
      const informer = informers instanceof FakeInformer ? informers : informers[kind.kind];
      if (!informer) throw new Error(`fakeSource: no informer for ${kind.kind}`);
      return informer as unknown as Informer<T>;
    },
  };
}
