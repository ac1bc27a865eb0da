/** Shared objects for the client tests: a Widget CRD whose schema carries `default` and `enum`. */
import type { KubeObject } from "../../src/client/index.ts";

/** A namespaced Widget CRD (example.com/v1) with status and scale subresources. */
export function widgetCrd(group = "example.com", kind = "Widget", plural = "widgets"): KubeObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{
        name: "v1", served: true, storage: true,
        subresources: { status: {}, scale: { specReplicasPath: ".spec.size", statusReplicasPath: ".status.size" } },
        schema: { openAPIV3Schema: { type: "object", properties: {
          spec: { type: "object", required: ["size"], properties: {
            size: { type: "integer", minimum: 1 },
            color: { type: "string", enum: ["red", "blue"], default: "red" },
          } },
          status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        } } },
      }],
    },
  };
}

/** A ConfigMap in `default`. */
export function configMap(name: string, data: Record<string, string> = { a: "1" }, namespace = "default"): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace }, data };
}

/** A one-container Deployment in `default`. */
export function deployment(name: string, image = "nginx:1.27"): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, namespace: "default", labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "web", image }] } },
    },
  };
}
