/** The options of LeaderElector and the reasons its leadership ends. */
import type { ResourceClient } from "../client/resource-client.ts";
import type { Clock } from "../util/clock.ts";
import type { Logger } from "../log/logger.ts";

/**
 * Options of `LeaderElector`. Durations in ms; defaults are controller-runtime's
 * 15 s / 10 s / 2 s. Must hold: leaseDurationMs > renewDeadlineMs > retryPeriodMs > 0.
 *
 * @example
 * ```ts
 * import { hostname } from "node:os";
 * import { randomUUID } from "node:crypto";
 *
 * const options: LeaderElectorOptions = { client, namespace: "operators", name: "dataapp-operator",
 *   identity: `${hostname()}_${randomUUID()}` };
 * ```
 */
export interface LeaderElectorOptions {
  client: ResourceClient;
  /** Namespace of the Lease. */
  namespace: string;
  /** Name of the Lease (one per operator). */
  name: string;
  /** This candidate's identity, unique among the replicas (pod name + random suffix). */
  identity: string;
  /** How long a holder's lease stays valid after a candidate last saw it change. */
  leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before it gives up leading. */
  renewDeadlineMs?: number;
  /** Time between attempts (candidates) and between renewals (leader). */
  retryPeriodMs?: number;
  logger?: Logger;
  /** Receives leader_election_master_status (a `Metrics`). */
  metrics?: { leaderStatus(name: string, leading: boolean): void };
  /**
   * Time for the protocol: the retry and renew timers, the renew deadline, and how long a seen
   * Lease has gone unchanged (its expiry). Default `realClock`: monotonic `performance.now()`,
   * so a wall-clock step never shortens a lease, and unref'd timers. Tests pass a `ManualClock`
   * and step the election without waiting:
   *
   * @example
   * ```ts
   * import { LeaderElector } from "operator-runtime/controller";
   * import { ManualClock } from "operator-runtime/testing";
   *
   * const clock = new ManualClock();
   * const elector = new LeaderElector({ client, namespace: "operators", name: "op", identity: "a", clock });
   * clock.advance(2_400); // a retry period plus the most jitter (20 %): the next attempt falls due
   * ```
   */
  clock?: Clock;
  /** Wall-clock time (epoch ms) for the Lease's acquireTime and renewTime stamps only. Default Date.now. */
  now?: () => number;
}

/**
 * Why leading ended: no renewal succeeded within renewDeadline, another candidate took the
 * Lease, or `stop()`.
 *
 * @example
 * ```ts
 * import type { LeaderElector } from "operator-runtime/controller";
 * declare const elector: LeaderElector;
 *
 * elector.onStoppedLeading((reason: StoppedLeadingReason) => {
 *   if (reason !== "stopped") process.exitCode = 1; // lost, not shut down
 * });
 * ```
 */
export type StoppedLeadingReason = "renew-deadline" | "taken-over" | "stopped";
