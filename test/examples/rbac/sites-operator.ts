/**
 * A test operator module for `gen rbac` and the RBAC proofs: one controller that `.owns`
 * Deployments and ConfigMaps and writes them with a Builder reading through the cache. Each
 * Site gets, per worker, a ConfigMap (`spec.conf`) and a Deployment mounting it (a changed
 * `conf` updates both: the config hash rolls the pods); fewer workers prune the rest. Its generated RBAC holds nothing on Secrets, Services or StatefulSets.
 */
import { Builder, ConfigMap, Deployment, Action, defineKind } from "../../../src/index.ts";
import type { KubeObject, Manager, ManagerOptions } from "../../../src/index.ts";
import { exampleManager } from "../../../examples/example.ts";
import type { ExampleOperator } from "../../../examples/example.ts";

/** A Site: `spec.workers` workers, each configured with `spec.conf`. */
export const Site = defineKind<{ workers: number; conf?: string }>({ apiVersion: "sites.example.com/v1", kind: "Site" });

/** The Site CRD. */
export const crds: readonly KubeObject[] = [{
  apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name: "sites.sites.example.com" },
  spec: {
    group: "sites.example.com", scope: "Namespaced", names: { kind: "Site", plural: "sites", singular: "site", listKind: "SiteList" },
    versions: [{
      name: "v1", served: true, storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { workers: { type: "integer", minimum: 0 }, conf: { type: "string" } } } } } },
    }],
  },
}];

/** The field manager, also the name of its ServiceAccount, roles and leader Lease. */
export const SITES_FIELD_MANAGER = "sites-operator";

/** The sites operator, as the RBAC harness runs it. */
export const operator: ExampleOperator = {
  name: "sites",
  description: "per worker of a Site, a ConfigMap and a Deployment mounting it",
  crds,
  samples: [{ ...Site, metadata: { name: "web" }, spec: { workers: 2 } }],
  register(mgr: Manager): void {
    const sites = mgr.cache.informer(Site);
    mgr.controller("sites")
      .for(Site)
      .owns(Deployment) // written by a Builder
      .owns(ConfigMap)
      .reconcile(async (req, ctx) => {
        const site = sites.get(req.name, req.namespace);
        if (!site || site.metadata?.deletionTimestamp) return Action.done();
        const builder = new Builder({ client: mgr.client, owner: site, reader: mgr.cache, signal: ctx.signal, ...(mgr.recorder ? { recorder: mgr.recorder } : {}) });
        for (let i = 0; i < site.spec.workers; i++) {
          const name = `${req.name}-w${i}`;
          const labels = { site: req.name, worker: String(i) };
          builder.configMap({ metadata: { name }, data: { "worker.conf": `index=${i}\n${site.spec.conf ?? ""}` } });
          builder.deployment({
            metadata: { name },
            spec: {
              replicas: 1, selector: { matchLabels: labels },
              template: { metadata: { labels }, spec: { containers: [{ name: "worker", image: "example/worker:1" }], volumes: [{ name: "conf", configMap: { name } }] } },
            },
          });
        }
        const result = await builder.reconcile();
        if (!result.ok) throw new AggregateError(result.errors, `site ${req.name}: ${result.errors.length} object(s) failed`);
        return Action.done();
      });
  },
};

/** A Manager running the sites operator. */
export function manager(options: Partial<ManagerOptions> = {}): Manager {
  return exampleManager(operator, options);
}
