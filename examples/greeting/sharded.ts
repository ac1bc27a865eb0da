/**
 * The greeting operator as a sharded Manager, for `operator-runtime gen rbac|manifests
 * examples/greeting/sharded.ts` and the tests that run it with only that RBAC: the controllers
 * of `manager.ts`, run by every replica on its share of the keys (the ring
 * `greeting-operator`, its member Leases in `default`), with no leader election. Importing this
 * module starts nothing.
 */
import type { Manager, ManagerOptions } from "../../src/index.ts";
import type { ShardingOptions } from "../../src/entries/sharding.ts";
import { crds, manager as greetingManager } from "./manager.ts";

export { crds };

/** The ring the replicas join: its name, and the namespace of its members' Leases. */
export const sharding = { ring: "greeting-operator", namespace: "default" } as const satisfies ShardingOptions;

/** Options of {@link manager}: a Manager's, with `sharding` merged over {@link sharding}. */
export interface ShardedGreetingOptions extends Omit<Partial<ManagerOptions>, "sharding"> {
  /** This replica's identity and ring timings (`ring` and `namespace` default to {@link sharding}'s). */
  sharding?: Partial<ShardingOptions>;
}

/**
 * A replica of the sharded greeting operator: `manager.ts`'s Manager with `sharding` (merged
 * over {@link sharding}) instead of leader election (passing `leaderElection` too throws: a
 * sharded Manager cannot have it).
 *
 * @example
 * ```ts
 * const replica = manager({ kubeConfig, sharding: { identity: process.env.POD_NAME } });
 * await replica.runUntilSignal();
 * ```
 */
export function manager(options: ShardedGreetingOptions = {}): Manager {
  return greetingManager({ leaderElection: false, ...options, sharding: { ...sharding, ...options.sharding } });
}
