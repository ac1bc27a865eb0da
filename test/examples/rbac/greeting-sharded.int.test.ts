/**
 * The greeting operator as two sharded replicas runs with only the RBAC `operator-runtime gen
 * rbac examples/greeting/sharded.ts` generates for it: through its scenario (with a crashed
 * member's Lease left in the ring for them to clean up) with zero 403s; with any one rule
 * removed, or any one verb of the ring's leases rule, it meets a 403.
 */
import * as module from "../../../examples/greeting/sharded.ts";
import { describeRbacProof } from "./harness.ts";

await describeRbacProof("greeting", module, {
  file: "examples/greeting/sharded.ts",
  mode: { kind: "sharded", replicas: 2 },
  eachVerbOf: (rule) => rule.apiGroups[0] === "coordination.k8s.io" && rule.resources[0] === "leases",
});
