/**
 * The pinot example operator runs with only the RBAC `operator-runtime gen rbac` generates for it:
 * through its scenario with zero 403s, and with any one rule removed it meets a 403.
 */
import * as module from "../../../examples/pinot/manager.ts";
import { describeRbacProof } from "./harness.ts";

await describeRbacProof("pinot", module);
