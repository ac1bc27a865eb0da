/**
 * The cache's public shapes: an Informer per kind and scope, its event handlers and indexes.
 */
import type { KindRef, KubeObject } from "../client/types.ts";

/** Called on cache changes, after the cache holds the new state. Handlers must be quick. */
export interface InformerEventHandler<T extends KubeObject = KubeObject> {
  add?(obj: T, isInitialList: boolean): void;
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T): void;
  /**
   * The informer follows the server again after having been stale (see `Informer.isStale`): a
   * relist has been reported (as add/update/delete) or the server accepted a watch resume.
   * Not called for the first list.
   */
  caughtUp?(): void;
}

/** An index function: the index values an object is filed under. */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: T) => string[];

/** A shared informer: a list+watch mirror of one kind in one scope. */
export interface Informer<T extends KubeObject = KubeObject> {
  readonly kind: KindRef;
  /** Namespace scope (undefined: all namespaces / cluster-scoped). */
  readonly namespace: string | undefined;
  /** Registers a handler; existing objects are replayed to it as `add(obj, true)`. Returns an unsubscribe. */
  addEventHandler(handler: InformerEventHandler<T>): () => void;
  /** Resolves after the first full list has been stored. */
  synced(): Promise<void>;
  hasSynced(): boolean;
  /**
   * Whether the contents may lag behind the server: true before the first list, and from the
   * moment a watch fails (server restart, network failure, 410 Gone) — or, after a clean close
   * (a server timeout), once its resume has not been accepted within the reflector's
   * `resumeGraceMs` (1 s) — until a relist was stored or the server accepted the next watch.
   * Unlike `hasSynced()`, it can turn back to true.
   */
  isStale(): boolean;
  /** The newest cached copy, or undefined. */
  get(name: string, namespace?: string): T | undefined;
  /** Cached objects, optionally of one namespace. */
  list(namespace?: string): T[];
  /** Adds an index (allowed before or after start). */
  addIndex(name: string, fn: IndexFunc<T>): void;
  /** Objects filed under `value` in index `name`. */
  byIndex(name: string, value: string): T[];
  /** The resourceVersion the cache is at. */
  lastSyncResourceVersion(): string;
}
