/**
 * Test helpers for LocalCluster's authorization mode: raw HTTPS requests with a chosen bearer
 * token (trusting the cluster's certificate), and granting rules to a subject as the admin.
 */
import { request } from "node:https";
import { RbacAuthorizationV1Api, type V1PolicyRule, type RbacV1Subject } from "@kubernetes/client-node";
import type { LocalCluster } from "../../src/testing/index.ts";

/** An answer: code and parsed JSON body (undefined when not JSON). */
export interface RawAnswer {
  code: number;
  body: any;
  text: string;
}

/** A raw request to an authorization-mode cluster; `token` (if any) goes in `Authorization: Bearer`. Fails after 10 s. */
export function rawAs(
  cluster: LocalCluster,
  token: string | undefined,
  method: string,
  path: string,
  options: { body?: unknown; contentType?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  const payload = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  if (payload !== undefined) headers["Content-Type"] = options.contentType ?? "application/json";
  return new Promise((resolve, reject) => {
    const req = request(cluster.url + path, { method, headers, ca: cluster.caCertificate, timeout: 10_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d: string) => (text += d)).on("end", () => {
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ code: res.statusCode ?? 0, body, text });
      });
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/** A service account subject. */
export const serviceAccount = (namespace: string, name: string): RbacV1Subject => ({ kind: "ServiceAccount", name, namespace });

/**
 * As the cluster's admin: creates a Role in `namespace` (or, with `namespace` undefined, a
 * ClusterRole) named `name` with `rules`, and a binding of the same name to `subjects`.
 */
export async function grant(
  cluster: LocalCluster,
  namespace: string | undefined,
  name: string,
  rules: V1PolicyRule[],
  subjects: RbacV1Subject[],
): Promise<void> {
  const rbac = cluster.kubeConfig.makeApiClient(RbacAuthorizationV1Api);
  const metadata = { name };
  if (namespace === undefined) {
    await rbac.createClusterRole({ body: { metadata, rules } });
    await rbac.createClusterRoleBinding({ body: { metadata, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name }, subjects } });
  } else {
    await rbac.createNamespacedRole({ namespace, body: { metadata, rules } });
    await rbac.createNamespacedRoleBinding({ namespace, body: { metadata, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name }, subjects } });
  }
}

/** The status code and message of a client-node error (ApiException with a Status body). */
export function statusOf(err: unknown): { code: number; message: string; body: any } {
  const e = err as { code?: number; body?: unknown };
  const body = typeof e.body === "string" ? JSON.parse(e.body) : e.body;
  return { code: e.code ?? 0, message: (body as { message?: string })?.message ?? "", body };
}
