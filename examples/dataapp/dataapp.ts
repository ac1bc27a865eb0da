/**
 * A small data app operator written as a Builder consumer: each `DataApp` owns a ConfigMap,
 * a StatefulSet that mounts it (and rolls when it changes), a Service and an optional
 * scratch PersistentVolumeClaim.
 */
import { Builder, defineKind, writeStatus } from "../../src/index.ts";
import type { BuilderEventRecorder } from "../../src/entries/builder.ts";
import type { KubeObject, BuilderResult, ResourceClient } from "../../src/index.ts";
import type { ObjectOf } from "../../src/entries/client.ts";

/** What a DataApp asks for. */
export interface DataAppSpec {
  image: string;
  replicas: number;
  config: Record<string, string>;
  port?: number;
  /** Size of a scratch PersistentVolumeClaim, e.g. "1Gi"; none when unset. */
  scratch?: string;
}

/** What the operator reports. */
export interface DataAppStatus {
  phase?: "Progressing" | "Ready" | "Degraded";
  objects?: number;
  observedGeneration?: number;
}

/** The DataApp custom resource (example.com/v1): the kind handle and its object type. */
export const DataApp = defineKind<DataAppSpec, DataAppStatus>({ apiVersion: "example.com/v1", kind: "DataApp" });
export type DataApp = ObjectOf<typeof DataApp>;

/** The DataApp CRD, ready to create. */
export const dataAppCrd: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "dataapps.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "dataapps", singular: "dataapp", kind: "DataApp" },
    versions: [{
      name: "v1", served: true, storage: true, subresources: { status: {} },
      schema: { openAPIV3Schema: { type: "object", properties: {
        spec: { type: "object", required: ["image", "config"], properties: {
          image: { type: "string" },
          replicas: { type: "integer", minimum: 1, default: 1 },
          port: { type: "integer", default: 8080 },
          scratch: { type: "string" },
          config: { type: "object", additionalProperties: { type: "string" } },
        } },
        status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      } } },
    }],
  },
};

/** Makes the cluster match one DataApp and writes its status. */
export async function reconcileDataApp(client: ResourceClient, app: DataApp, recorder?: BuilderEventRecorder): Promise<BuilderResult> {
  const name = app.metadata!.name!;
  const labels = { "app.kubernetes.io/name": "dataapp", "app.kubernetes.io/instance": name };
  const port = app.spec.port ?? 8080;
  const builder = new Builder({ client, owner: app, labels, ...(recorder ? { recorder } : {}) })
    .configMap({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-config` }, data: app.spec.config })
    .statefulSet({
      apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name },
      spec: {
        replicas: app.spec.replicas, serviceName: name,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [{ name: "app", image: app.spec.image, ports: [{ name: "http", containerPort: port }],
              volumeMounts: [{ name: "config", mountPath: "/etc/dataapp" }] }],
            volumes: [{ name: "config", configMap: { name: `${name}-config` } }],
          },
        },
      },
    })
    .service({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { selector: labels, ports: [{ name: "http", port, targetPort: port }] } });
  if (app.spec.scratch) {
    builder.storage({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: `${name}-scratch` },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: app.spec.scratch } } } });
  }
  const result = await builder.reconcile();
  await writeStatus(client, app, {
    phase: result.ok ? (result.changed ? "Progressing" : "Ready") : "Degraded",
    objects: result.objects.length,
  });
  return result;
}
