/**
 * What a controller does with the API, declared next to its watches, so that
 * `operator-runtime gen rbac` can print exactly the RBAC rules it needs.
 *
 * Watching a kind (`for`, `owns`, `watches`, or `cache.informer(kind)`) needs `get`, `list` and
 * `watch` on it; everything else the reconciler does is declared with {@link KindAccess}: on
 * `.for`, `.owns` and `.watches`, and with `.uses(kind, access)` for a kind the controller does
 * not watch.
 */
import type { KindRef } from "../kinds/kind.ts";

/** An RBAC verb on resources. */
export type Verb = "get" | "list" | "watch" | "create" | "update" | "patch" | "delete" | "deletecollection";

/** The verbs every RBAC verb list is checked against. */
export const VERBS: readonly Verb[] = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];

/** The verbs watching a kind needs (an informer lists and watches; `get` for reads by name). */
export const WATCH_VERBS: readonly Verb[] = ["get", "list", "watch"];

/**
 * The verbs a {@link Builder} (and `prune`) uses on the kinds it manages: server-side apply is a
 * `patch` and, for an object that does not exist yet, also a `create`; pruning and the
 * re-creation of an object with an immutable change are `delete`s. The default of `.owns(kind)`.
 */
export const BUILDER_VERBS: readonly Verb[] = ["create", "patch", "delete"];

/**
 * What a reconciler does with a kind beyond watching it.
 *
 * @example
 * ```ts
 * import { mapByLabel } from "operator-runtime";
 * import type { Reconciler } from "operator-runtime";
 *
 * declare const reconcileGreeting: Reconciler;
 * mgr.controller("greeting")
 *   .for(Greeting, { status: ["patch"] })       // writeStatus() patches greetings/status
 *   .watches(Person, mapByLabel("example.com/greeting"), { verbs: ["patch"] }) // adds and removes a finalizer with a patch
 *   .reconcile(reconcileGreeting);
 * ```
 */
export interface KindAccess {
  /**
   * Verbs on the kind's objects besides `get`/`list`/`watch`, e.g. `["patch"]` for finalizers
   * added with a patch. Default: {@link BUILDER_VERBS} for `.owns`, none otherwise.
   */
  verbs?: readonly Verb[];
  /**
   * Verbs on the `status` subresource: `["patch"]` for `writeStatus()`/`client.patchStatus()`,
   * `["update"]` for `client.replaceStatus()`. Default: none. On `.for`, `"patch"` also lets the
   * controller set `Ready=False` on the primary when a reconcile fails with a terminal error;
   * without it a terminal error is logged and recorded as an event only.
   */
  status?: readonly Verb[];
  /**
   * Verbs on the `finalizers` subresource. `["update"]` lets the objects the controller writes
   * set `blockOwnerDeletion` in owner references to this kind (the Builder and
   * `setControllerReference` do), which clusters running the OwnerReferencesPermissionEnforcement
   * admission plugin require. Default: `["update"]` on `.for` when the controller `.owns` kinds
   * (their objects reference the primary), none otherwise.
   */
  finalizers?: readonly Verb[];
}

/** One kind a controller touches, with what it does to it. */
export interface KindUse {
  /** The kind. */
  kind: KindRef;
  /** The namespace its watch is limited to; undefined for all namespaces. */
  namespace?: string | undefined;
  /** Whether the controller watches it (an informer lists and watches it). */
  watched: boolean;
  /** Verbs on its objects besides the watch verbs. */
  verbs: readonly Verb[];
  /** Verbs on its `status` subresource. */
  status: readonly Verb[];
  /** Verbs on its `finalizers` subresource (`update`, where children block its deletion). */
  finalizers: readonly Verb[];
}

/**
 * The API access a controller declared: its kinds and what it does to each. Read by
 * `operator-runtime gen rbac` through `Controller.access`.
 */
export interface ControllerAccess {
  /** The controller's name. */
  controller: string;
  /**
   * Whether it writes kinds with a Builder (an `.owns(kind)` without `verbs`). A Builder reads
   * only the kinds it writes and prunes (those the controller owns, plus its `manages`) and,
   * by name in the owner's namespace, the ConfigMaps and Secrets its workloads reference: it
   * adds no rule of its own (declare a `get` for such a Secret with `.uses`).
   */
  builder: boolean;
  /** Its kinds, the primary first. */
  kinds: readonly KindUse[];
}

/**
 * Checks declared verbs: every entry must be an RBAC verb. Throws a TypeError naming the field,
 * the culprit and the verbs allowed.
 *
 * @example
 * ```ts
 * checkVerbs("for(Greeting).status", ["patch"]); // ["patch"]
 * checkVerbs("owns(Pod).verbs", ["apply"]);      // TypeError: … "apply" is not an RBAC verb (server-side apply is "patch") …
 * ```
 */
export function checkVerbs(field: string, verbs: unknown): Verb[] {
  if (!Array.isArray(verbs)) throw new TypeError(`${field} must be an array of RBAC verbs (${VERBS.join(", ")}), got ${JSON.stringify(verbs)}`);
  for (const v of verbs) {
    if (!VERBS.includes(v as Verb)) {
      const hint = v === "apply" ? " (server-side apply is \"patch\", plus \"create\" when it creates)" : "";
      throw new TypeError(`${field}: ${JSON.stringify(v)} is not an RBAC verb${hint}; use ${VERBS.join(", ")}`);
    }
  }
  return [...new Set(verbs as Verb[])];
}
