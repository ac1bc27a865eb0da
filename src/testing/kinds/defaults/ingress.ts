/**
 * Ingress defaults: networking/v1 has no `SetDefaults_Ingress`; a new Ingress gets the status
 * the v1 encoding shows. (The DefaultIngressClass admission only acts when an IngressClass is
 * marked default; LocalCluster runs no such plugin.)
 */
import type { KindDefaults } from "./types.ts";

/** Ingress. */
export const ingress: KindDefaults = {
  create(obj) {
    obj.status = { loadBalancer: {} };
  },
};
