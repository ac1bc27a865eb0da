/**
 * The kubeconfig files LocalCluster writes: one cluster, one user, one context. Without
 * authorization mode the server is plain HTTP; with it, HTTPS with LocalCluster's self-signed
 * certificate as the trusted CA (kubectl sends a kubeconfig's token only over HTTPS).
 */
import { writeFile } from "node:fs/promises";
import { KubeConfig } from "@kubernetes/client-node";

/** Who a kubeconfig authenticates as, and its context's namespace. */
export interface KubeconfigIdentity {
  /** The kubeconfig's user entry name. */
  readonly user: string;
  readonly token: string;
  readonly namespace: string;
}

/**
 * The kubeconfig YAML (strings quoted as JSON, which YAML reads). With `caCertificate` (PEM),
 * the server's certificate is verified against it; without, verification is skipped (plain
 * HTTP needs none).
 *
 * @example
 * ```ts
 * kubeconfigYaml("http://127.0.0.1:41234", { user: "localcluster", token: "t", namespace: "default" });
 * ```
 */
export function kubeconfigYaml(url: string, who: KubeconfigIdentity, caCertificate?: string): string {
  const q = (v: string) => JSON.stringify(v);
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    "- name: localcluster",
    "  cluster:",
    `    server: ${url}`,
    caCertificate
      ? `    certificate-authority-data: ${Buffer.from(caCertificate).toString("base64")}`
      : "    insecure-skip-tls-verify: true",
    "users:",
    `- name: ${q(who.user)}`,
    "  user:",
    `    token: ${q(who.token)}`,
    "contexts:",
    "- name: localcluster",
    "  context:",
    "    cluster: localcluster",
    `    user: ${q(who.user)}`,
    `    namespace: ${q(who.namespace)}`,
    "current-context: localcluster",
    "",
  ].join("\n");
}

/** Writes a kubeconfig file and loads it into a client-node KubeConfig. */
export async function writeKubeconfig(path: string, url: string, who: KubeconfigIdentity, caCertificate?: string): Promise<KubeConfig> {
  await writeFile(path, kubeconfigYaml(url, who, caCertificate));
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(path);
  return kubeConfig;
}
