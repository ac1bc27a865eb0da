/** The coordination.k8s.io/v1 Lease as leader election reads and writes it: held, renewed, released. */
import { microTime } from "../events/event-object.ts";
import type { KubeObject } from "../client/types.ts";

/**
 * `spec` of a Lease. `acquireTime` and `renewTime` are MicroTime strings (UTC, exactly six
 * fractional digits).
 *
 * @example
 * ```ts
 * const spec: LeaseSpec = { holderIdentity: "pod-a", leaseDurationSeconds: 15, leaseTransitions: 0,
 *   acquireTime: "2026-01-01T00:00:00.123000Z", renewTime: "2026-01-01T00:00:02.125000Z" };
 * ```
 */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  [field: string]: unknown;
}

/**
 * A Lease object as plain JSON.
 *
 * @example
 * ```ts
 * const lease = await client.get<Lease>({ ...LEASE_KIND, namespace: "operators", name: "my-operator" });
 * console.log(lease.spec?.holderIdentity);
 * ```
 */
export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/**
 * apiVersion and kind of a Lease.
 *
 * @example
 * ```ts
 * const ref = { ...LEASE_KIND, namespace: "operators", name: "my-operator" };
 * ```
 */
export const LEASE_KIND = { apiVersion: "coordination.k8s.io/v1", kind: "Lease" } as const;

/**
 * Annotation in which a holder advertises its exact lease duration: `<ms>/<holderIdentity>`.
 * `leaseDurationSeconds` is whole seconds; durations below or between seconds (tests) need this
 * to be judged exactly. Candidates that don't know it use `leaseDurationSeconds`, which is
 * rounded up and so never shorter. It is trusted only while it names the current holder and
 * agrees with `leaseDurationSeconds` (another client may take over and leave it stale).
 *
 * @example
 * ```ts
 * declare const lease: Lease;
 *
 * lease.metadata?.annotations?.[LEASE_DURATION_MS_ANNOTATION]; // "600/pod-a"
 * ```
 */
export const LEASE_DURATION_MS_ANNOTATION = "operator-runtime.io/lease-duration-ms";

/**
 * What a holder writes into the Lease.
 *
 * @example
 * ```ts
 * const hold: HoldOptions = { namespace: "ops", name: "op", identity: "pod-a", durationMs: 15_000, now: Date.now() };
 * ```
 */
export interface HoldOptions {
  namespace: string;
  name: string;
  identity: string;
  durationMs: number;
  /** Epoch milliseconds stamped as renewTime (and acquireTime when acquiring). */
  now: number;
}

/**
 * The Lease body that holds the lease for `identity`: a new Lease (transitions 0) when
 * `current` is undefined; a renewal (acquireTime and leaseTransitions kept) when `identity`
 * already holds it; else a takeover (acquireTime now, leaseTransitions + 1). The body keeps
 * `current`'s resourceVersion, so the PUT is conditional on the Lease being unchanged.
 *
 * @example
 * ```ts
 * const current = await client.get<Lease>({ ...LEASE_KIND, namespace: "ops", name: "op" });
 * const body = holdingLease(current, { namespace: "ops", name: "op", identity: "pod-b", durationMs: 15_000, now: Date.now() });
 * await client.replace(body); // ConflictError if someone wrote the Lease meanwhile
 * ```
 */
export function holdingLease(current: Lease | undefined, o: HoldOptions): Lease {
  const spec = current?.spec ?? {};
  const mine = current !== undefined && spec.holderIdentity === o.identity;
  const stamp = microTime(new Date(o.now));
  const transitions = spec.leaseTransitions ?? 0;
  return {
    ...current,
    ...LEASE_KIND,
    metadata: {
      ...current?.metadata,
      name: o.name,
      namespace: o.namespace,
      annotations: { ...current?.metadata?.annotations, [LEASE_DURATION_MS_ANNOTATION]: `${o.durationMs}/${o.identity}` },
    },
    spec: {
      ...spec,
      holderIdentity: o.identity,
      leaseDurationSeconds: wholeSeconds(o.durationMs),
      acquireTime: mine && spec.acquireTime ? spec.acquireTime : stamp,
      renewTime: stamp,
      leaseTransitions: current === undefined ? 0 : mine ? transitions : transitions + 1,
    },
  };
}

/**
 * The Lease body that releases it, as client-go does: holderIdentity "", leaseDurationSeconds
 * 1, both times now, leaseTransitions kept, resourceVersion kept (conditional PUT).
 *
 * @example
 * ```ts
 * declare const ourLease: Lease; // as this holder last wrote it
 *
 * await client.replace(releasedLease(ourLease, Date.now()));
 * ```
 */
export function releasedLease(current: Lease, now: number): Lease {
  const stamp = microTime(new Date(now));
  const annotations = { ...current.metadata?.annotations };
  delete annotations[LEASE_DURATION_MS_ANNOTATION];
  return {
    ...current,
    metadata: { ...current.metadata, annotations },
    spec: { ...current.spec, holderIdentity: "", leaseDurationSeconds: 1, acquireTime: stamp, renewTime: stamp },
  };
}

/**
 * How long the holder promised the Lease stays valid after a change is observed, in ms: the
 * advertised exact duration, else `leaseDurationSeconds`, else `fallbackMs`.
 *
 * @example
 * ```ts
 * declare const lease: Lease;
 *
 * leaseDurationMsOf(lease, 15_000); // 600 while pod-a (leaseDurationMs 600) holds it
 * ```
 */
export function leaseDurationMsOf(lease: Lease, fallbackMs: number): number {
  const seconds = lease.spec?.leaseDurationSeconds;
  const advertised = lease.metadata?.annotations?.[LEASE_DURATION_MS_ANNOTATION] ?? "";
  const slash = advertised.indexOf("/");
  const exact = Number(advertised.slice(0, slash));
  if (slash > 0 && advertised.slice(slash + 1) === lease.spec?.holderIdentity && exact > 0 && wholeSeconds(exact) === seconds) return exact;
  return typeof seconds === "number" && seconds > 0 ? seconds * 1000 : fallbackMs;
}

/** `leaseDurationSeconds` for a duration in ms: rounded up, at least 1. */
function wholeSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
