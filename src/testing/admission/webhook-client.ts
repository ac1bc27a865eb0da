/**
 * LocalCluster's side of a webhook call, shared by admission and CRD conversion: an HTTPS POST
 * of a review to a `clientConfig` (`url`, or a `service` reference resolved by the cluster),
 * trusting only the configured `caBundle` as kube-apiserver does (a wrong CA fails the call),
 * bounded by the webhook's timeout.
 *
 * @module
 */
import { request } from "node:https";
import type { IncomingMessage } from "node:http";

/** A webhook's `clientConfig` (admissionregistration/v1 and apiextensions/v1 share it). */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of the PEM CA bundle that signed the webhook's serving certificate. */
  caBundle?: string;
}

/**
 * Maps a `service` reference to where LocalCluster can reach it (there are no Services behind
 * LocalCluster): an `https://host:port` base URL, or undefined when the service is unknown.
 */
export type ServiceResolver = (service: { namespace: string; name: string; port: number }) => string | undefined;

/** Why a call failed: what kube-apiserver's message says, and whether `failurePolicy` applies. */
export class WebhookCallError extends Error {
  /** `unreachable` (connection, TLS, unknown service), `timeout`, `status` (non-2xx), `decode` (not a review). */
  readonly kind: "unreachable" | "timeout" | "status" | "decode";
  constructor(kind: WebhookCallError["kind"], message: string) {
    super(message);
    this.name = "WebhookCallError";
    this.kind = kind;
  }
}

/** The URL a call goes to, with the TLS server name the certificate must carry. */
export interface WebhookTarget {
  url: URL;
  /** The name checked against the certificate (the service's DNS name for a service reference). */
  servername: string;
}

/**
 * Where a `clientConfig` points.
 *
 * @throws {WebhookCallError} `unreachable` when a service reference has no resolution.
 */
export function webhookTarget(config: WebhookClientConfig, resolve?: ServiceResolver): WebhookTarget {
  if (config.url) {
    const url = new URL(config.url);
    return { url, servername: url.hostname };
  }
  const svc = config.service;
  if (!svc) throw new WebhookCallError("unreachable", "webhook clientConfig has neither url nor service");
  const port = svc.port ?? 443;
  const base = resolve?.({ namespace: svc.namespace, name: svc.name, port });
  if (!base) {
    throw new WebhookCallError("unreachable", `service "${svc.name}" in namespace "${svc.namespace}" (port ${port}) is not reachable from LocalCluster: pass LocalCluster's webhookServices option or use clientConfig.url`);
  }
  const url = new URL((svc.path ?? "/").replace(/^\/?/, "/"), base);
  return { url, servername: `${svc.name}.${svc.namespace}.svc` };
}

/**
 * POSTs `body` as JSON and returns the parsed JSON answer.
 *
 * @throws {WebhookCallError} on a connection or TLS failure, a timeout, a non-2xx answer or a
 *   body that is not JSON.
 */
export async function postReview(target: WebhookTarget, caBundle: string | undefined, body: unknown, timeoutMs: number): Promise<unknown> {
  const payload = Buffer.from(JSON.stringify(body));
  const ca = caBundle ? Buffer.from(caBundle, "base64").toString("utf8") : undefined;
  return await new Promise<unknown>((resolve, reject) => {
    const req = request(target.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "content-length": payload.length },
      ...(ca !== undefined ? { ca } : {}),
      servername: target.servername,
      timeout: timeoutMs,
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy(new WebhookCallError("timeout", `context deadline exceeded (timeout ${timeoutMs / 1000}s)`));
    }, timeoutMs);
    const fail = (err: unknown) => {
      clearTimeout(timer);
      if (err instanceof WebhookCallError) reject(err);
      else reject(new WebhookCallError("unreachable", `Post "${target.url.href}": ${err instanceof Error ? err.message : String(err)}`));
    };
    req.on("error", fail);
    req.on("response", (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", fail);
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        const code = res.statusCode ?? 0;
        if (code < 200 || code >= 300) {
          reject(new WebhookCallError("status", `expected webhook response of 200, got ${code}${text ? `: ${text.slice(0, 200)}` : ""}`));
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new WebhookCallError("decode", `the webhook's answer is not JSON: ${text.slice(0, 200)}`));
        }
      });
    });
    req.end(payload);
  });
}
