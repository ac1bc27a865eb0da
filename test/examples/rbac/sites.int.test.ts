/**
 * An operator whose controller `.owns(Deployment)` and `.owns(ConfigMap)` and writes them with
 * a Builder through the cache runs with only the RBAC `operator-runtime gen rbac` generates for
 * it — nothing on Secrets, Services or StatefulSets: it converges and prunes with zero 403s,
 * and with any one rule (or one verb but `get` of its configmaps and deployments rules) removed
 * it meets a 403.
 */
import * as module from "./sites-operator.ts";
import { describeRbacProof } from "./harness.ts";

await describeRbacProof("sites", module, {
  file: "test/examples/rbac/sites-operator.ts",
  // `get` aside: `.owns` grants it for reads by name, which this reconciler (reading the cache) never makes.
  eachVerbOf: (rule, verb) => verb !== "get" && (rule.resources.includes("configmaps") || rule.resources.includes("deployments")),
});
