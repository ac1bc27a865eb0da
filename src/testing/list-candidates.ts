/**
 * The stored objects a list, a watch's initial state or a collection delete walks before its
 * selectors are applied: those of the namespace asked for (or all namespaces), and — when the
 * label selector requires labels to equal one value (`k=v`, `k==v`, `k in (v)`) — only those
 * carrying the rarest of them, through the store's label index. The selectors still decide; this only spares
 * walking objects they would reject.
 */
import type { ObjectStore, StoredObject } from "./object-store.ts";
import { parseLabelSelector } from "../util/label-selector.ts";

/** The label equalities the store can look up, from a valid selector text. */
export function labelEqualities(labelSelector: string | null): { key: string; value: string }[] {
  if (!labelSelector) return [];
  return parseLabelSelector(labelSelector).requirements
    .filter((req) => req.operator === "=" || req.operator === "==" || (req.operator === "in" && req.values.length === 1))
    .map((req) => ({ key: req.key, value: req.values[0]! }));
}

/**
 * Objects of `storageKey` in `namespace` (undefined: every namespace), sorted by
 * storage key, from the relative key `from` on when given (see `ObjectStore.list`), narrowed
 * by the query's label equalities if any.
 * Call it after the selector was parsed once (a bad selector has been answered 400 by then).
 */
export function listCandidates(store: ObjectStore, storageKey: string, namespace: string | undefined, query: URLSearchParams,
  from?: string): StoredObject[] {
  const labels = labelEqualities(query.get("labelSelector"));
  return labels.length ? store.listByLabel(storageKey, namespace, labels, from) : store.list(storageKey, namespace, from);
}
