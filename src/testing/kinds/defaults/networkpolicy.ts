/** NetworkPolicy defaults: networking/v1 `SetDefaults_NetworkPolicy` and `SetDefaults_NetworkPolicyPort`. */
import type { KindDefaults } from "./types.ts";
import { itemsAt, objectAt, orDefault } from "./types.ts";

/** NetworkPolicy. */
export const networkPolicy: KindDefaults = {
  decode(obj) {
    const spec = objectAt(obj, "spec");
    if (!spec) return;
    for (const direction of ["ingress", "egress"]) {
      for (const rule of itemsAt(spec, direction)) for (const p of itemsAt(rule, "ports")) orDefault(p, "protocol", "TCP");
    }
    if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
      spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ["Ingress", "Egress"] : ["Ingress"];
    }
  },
};
