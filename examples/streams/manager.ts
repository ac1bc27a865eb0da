/**
 * The streams operator's Manager, for `operator-runtime gen rbac|manifests examples/streams/manager.ts`
 * and the tests that run it with only that RBAC. Importing this module starts nothing.
 */
import type { Manager, ManagerOptions } from "../../src/index.ts";
import { exampleManager } from "../example.ts";
import { operator } from "./operator.ts";

/** The CRDs of its kinds. */
export const crds = operator.crds;

/** A Manager running the streams operator (see {@link exampleManager} for the defaults `options` override). */
export function manager(options: Partial<ManagerOptions> = {}): Manager {
  return exampleManager(operator, options);
}
