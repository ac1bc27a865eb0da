/**
 * The replicaset example operator runs with only the RBAC `operator-runtime gen rbac` generates for it:
 * through its scenario with zero 403s, and with any one rule removed it meets a 403.
 */
import { describe, it } from "node:test";
import * as module from "../../../examples/replicaset/manager.ts";
import { generatedRbac, proveNecessary, proveSufficient, ruleSlots } from "./harness.ts";

const rbac = await generatedRbac("replicaset");

describe("replicaset operator with its generated RBAC", () => {
  it("converges through its scenario with zero 403s", async () => {
    await proveSufficient("replicaset", module, rbac.yaml);
  });

  for (const slot of ruleSlots(rbac.objects)) {
    it(`meets a 403 without ${slot.label}`, async () => {
      await proveNecessary(module, "replicaset", slot.without);
    });
  }
});
