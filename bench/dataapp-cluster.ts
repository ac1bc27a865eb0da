/**
 * The scale and dashboard benchmarks' LocalCluster process, made ready for DataApps: waits for
 * the forked server, installs the DataApp CRD and a namespace, and waits until the CRD is served.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { ResourceClient } from "../src/index.ts";
import { DataApp, dataAppCrd } from "../examples/dataapp/dataapp.ts";
import type { Child } from "./scale-ipc.ts";

/**
 * Waits for `server` (a forked `scale-server.ts`) to be up, then installs the DataApp CRD and
 * `namespace`; answers its kubeconfig path and a client (field manager `fieldManager`) once
 * DataApps can be listed there. `label` names the server in errors.
 */
export async function dataAppClusterReady(server: Child, label: string, namespace: string, fieldManager: string): Promise<{ kubeconfigPath: string; client: ResourceClient }> {
  const ready = await server.next("ready", 30_000);
  const kubeconfigPath = String(ready.kubeconfigPath);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const client = new ResourceClient({ kubeConfig, fieldManager });
  await client.create(dataAppCrd);
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  for (let i = 0; ; i++) {
    try {
      await client.list(DataApp, { namespace, limit: 1 });
      return { kubeconfigPath, client };
    } catch (err) {
      if (i >= 100) throw new Error(`${label}: the DataApp CRD is not served after 5 s: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
