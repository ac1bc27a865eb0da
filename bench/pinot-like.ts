/**
 * A Pinot-like data app for benchmarks: four node types (controller, broker, server, minion),
 * each a ConfigMap + StatefulSet (mounting it) + Service + PVC: 16 objects.
 */
import type { KubeObject } from "../src/client/types.ts";

export const NODE_TYPES = ["controller", "broker", "server", "minion"] as const;

/** The 16 desired objects of one Pinot-like owner; `config` varies one node type's config. */
export function pinotObjects(owner: string, config: Partial<Record<(typeof NODE_TYPES)[number], string>> = {}): KubeObject[] {
  const out: KubeObject[] = [];
  for (const node of NODE_TYPES) {
    const name = `${owner}-${node}`;
    const labels = { app: "pinot", component: node, instance: owner };
    out.push({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: `${name}-config` },
      data: { [`pinot-${node}.conf`]: config[node] ?? `pinot.${node}.port=9000\npinot.zk.server=zk:2181\n` } });
    out.push({ apiVersion: "v1", kind: "PersistentVolumeClaim", metadata: { name: `${name}-deepstore` },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "10Gi" } } } });
    out.push({
      apiVersion: "apps/v1", kind: "StatefulSet", metadata: { name },
      spec: {
        replicas: 1, serviceName: `${name}-svc`, selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [{
              name: node, image: "apachepinot/pinot:1.2.0", args: [`Start${node[0]!.toUpperCase()}${node.slice(1)}`, "-configFileName", `/var/pinot/${node}/config/pinot-${node}.conf`],
              env: [{ name: "JAVA_OPTS", value: "-Xms1G -Xmx2G -XX:+UseG1GC" }],
              ports: [{ name: "http", containerPort: 9000 }],
              resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: { memory: "2Gi" } },
              volumeMounts: [{ name: "config", mountPath: `/var/pinot/${node}/config` }, { name: "data", mountPath: "/var/pinot/data" }],
            }],
            volumes: [{ name: "config", configMap: { name: `${name}-config` } }],
          },
        },
        volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }],
      },
    });
    out.push({ apiVersion: "v1", kind: "Service", metadata: { name: `${name}-svc` },
      spec: { selector: labels, ports: [{ name: "http", port: 9000, targetPort: 9000 }] } });
  }
  return out;
}
