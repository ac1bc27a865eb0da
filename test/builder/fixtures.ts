/**
 * A small data app for Builder tests: a ConfigMap, a Secret, a StatefulSet and a Deployment
 * that reference them, Services and a PVC.
 */
import type { KubeObject } from "../../src/client/types.ts";

export const config = (data: Record<string, string> = { "app.properties": "threads=4" }): KubeObject => ({
  apiVersion: "v1", kind: "ConfigMap", metadata: { name: "app-config" }, data,
});

export const secret = (password = "s3cret"): KubeObject => ({
  apiVersion: "v1", kind: "Secret", metadata: { name: "app-secret" }, stringData: { password },
});

export const otherConfig = (): KubeObject => ({
  apiVersion: "v1", kind: "ConfigMap", metadata: { name: "web-config" }, data: { theme: "dark" },
});

export const server = (replicas = 2): KubeObject => ({
  apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name: "server" },
  spec: {
    replicas, serviceName: "server",
    selector: { matchLabels: { app: "server" } },
    template: {
      metadata: { labels: { app: "server" } },
      spec: {
        containers: [{
          name: "server", image: "example/server:1",
          envFrom: [{ secretRef: { name: "app-secret" } }],
          volumeMounts: [{ name: "config", mountPath: "/etc/app" }, { name: "data", mountPath: "/data" }],
        }],
        volumes: [{ name: "config", configMap: { name: "app-config" } }],
      },
    },
    volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }],
  },
});

export const web = (replicas = 1): KubeObject => ({
  apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" },
  spec: {
    replicas,
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: { containers: [{ name: "web", image: "example/web:1", env: [{ name: "THEME", valueFrom: { configMapKeyRef: { name: "web-config", key: "theme" } } }] }] },
    },
  },
});

export const serverService = (port = 8080): KubeObject => ({
  apiVersion: "v1", kind: "Service", metadata: { name: "server" },
  spec: { selector: { app: "server" }, ports: [{ name: "http", port, targetPort: 8080 }] },
});

export const scratch = (): KubeObject => ({
  apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: "scratch" },
  spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "5Gi" } } },
});
