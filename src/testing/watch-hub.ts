/**
 * Fans committed changes out to open watches, turning selector transitions into ADDED and
 * DELETED events like the API server's watch cache does.
 */
import { StoredObject } from "./object-store.ts";
import type { Change } from "./object-store.ts";

/** One open watch. */
export interface Watcher {
  readonly storageKey: string;
  /** Only objects of this namespace ("" or undefined = all). */
  readonly namespace: string | undefined;
  /** Label/field selector match. */
  matches(o: StoredObject): boolean;
  /** Key of the serialized view (apiVersion + conversions) so renders can be shared. */
  readonly viewKey: string;
  /** The object's JSON in this watch's view. */
  render(o: StoredObject): string;
  /**
   * Set by watches whose view needs a conversion webhook: takes the event instead of
   * {@link render} and {@link send}, converts it and writes it in order.
   */
  deliver?(type: string, o: StoredObject): void;
  /** Writes one event line. */
  send(type: string, objectJson: string): void;
  /** Ends the watch abruptly (fault injection) or cleanly. */
  close(abrupt: boolean): void;
}

/** The last matching state of objects that left a selector, by change (shared by watchers). */
const leftStates = new WeakMap<Change, StoredObject>();

/**
 * The state a watch whose selector the object no longer matches sees in its DELETED event: the
 * previous state (the last one that matched) at the change's resourceVersion, as
 * kube-apiserver's watch cache sends it.
 */
function leftState(c: Change, previous: StoredObject): StoredObject {
  let state = leftStates.get(c);
  if (!state) {
    const last = previous.object();
    last.metadata = { ...last.metadata, resourceVersion: String(c.rv) };
    leftStates.set(c, (state = new StoredObject(previous.storageKey, last)));
  }
  return state;
}

/**
 * Decides the event a watcher sees for a change, or undefined when none: MODIFIED while the
 * object keeps matching, ADDED (new state) when it starts to, DELETED (its last matching state,
 * see {@link leftState}) when it stops or is deleted.
 */
export function eventFor(w: Watcher, c: Change): { type: string; object: StoredObject } | undefined {
  const o = c.object;
  if (w.namespace && o.namespace !== w.namespace) return undefined;
  if (c.type === "DELETED") {
    return w.matches(c.previous ?? o) ? { type: "DELETED", object: o } : undefined;
  }
  const now = w.matches(o);
  const before = c.previous !== undefined && w.matches(c.previous);
  if (now && before) return { type: "MODIFIED", object: o };
  if (now) return { type: "ADDED", object: o };
  if (before) return { type: "DELETED", object: leftState(c, c.previous!) };
  return undefined;
}

/** Open watches by storage key. */
export class WatchHub {
  #watchers = new Map<string, Set<Watcher>>();

  add(w: Watcher): void {
    let set = this.#watchers.get(w.storageKey);
    if (!set) this.#watchers.set(w.storageKey, (set = new Set()));
    set.add(w);
  }

  remove(w: Watcher): void {
    this.#watchers.get(w.storageKey)?.delete(w);
  }

  /** Number of open watches. */
  count(): number {
    let n = 0;
    for (const s of this.#watchers.values()) n += s.size;
    return n;
  }

  /** Delivers one change to every interested watcher; renders each view once. */
  dispatch(c: Change): void {
    const set = this.#watchers.get(c.object.storageKey);
    if (!set || set.size === 0) return;
    // Renders by view and object: watchers an object left see its previous state.
    let renders: Map<string, string> | undefined;
    for (const w of set) {
      const ev = eventFor(w, c);
      if (!ev) continue;
      if (w.deliver) {
        w.deliver(ev.type, ev.object);
        continue;
      }
      renders ??= new Map();
      const key = `${ev.object === c.object ? "" : "left|"}${w.viewKey}`;
      let json = renders.get(key);
      if (json === undefined) renders.set(key, (json = w.render(ev.object)));
      w.send(ev.type, json);
    }
  }

  /** Closes every watch of a storage key (CRD deleted) or all of them. */
  closeAll(abrupt: boolean, storageKey?: string): number {
    let n = 0;
    for (const [k, set] of this.#watchers) {
      if (storageKey !== undefined && k !== storageKey) continue;
      for (const w of [...set]) {
        n++;
        w.close(abrupt);
      }
    }
    return n;
  }
}
