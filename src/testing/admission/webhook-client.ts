/**
 * LocalCluster's side of a webhook call, shared by admission and CRD conversion: an HTTPS POST
 * of a review to a `clientConfig` (`url`, or a `service` reference resolved by the cluster),
 * trusting only the configured `caBundle` as kube-apiserver does (a wrong CA fails the call),
 * bounded by the webhook's timeout.
 *
 * @module
 */
import { Agent, request } from "node:https";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/**
 * Connections to webhooks are kept alive and reused, as kube-apiserver's client does (a TLS
 * handshake per call would cost more than the call). The agent pools per host, port, CA and
 * server name, so a webhook is only ever reached over a connection that trusted its own
 * `caBundle`; idle sockets do not keep the process alive.
 */
const keepAliveAgent = new Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 60_000 });

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
  /**
   * The URL as kube-apiserver names it in errors: for a service reference
   * `https://<name>.<namespace>.svc:<port><path>` (it dials that name); `url` otherwise.
   */
  shownUrl?: URL;
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
  const path = (svc.path ?? "/").replace(/^\/?/, "/");
  const url = new URL(path, base);
  const servername = `${svc.name}.${svc.namespace}.svc`;
  return { url, servername, shownUrl: new URL(path, `https://${servername}:${port}`) };
}

/**
 * POSTs `body` as JSON and returns the parsed JSON answer. The URL gets kube-apiserver's
 * `?timeout=<n>s` query, and failures read as its Go client words them
 * (`Post "https://…?timeout=10s": dial tcp 127.0.0.1:9443: connect: connection refused`,
 * `… tls: failed to verify certificate: x509: certificate signed by unknown authority`,
 * `… context deadline exceeded`).
 *
 * @throws {WebhookCallError} on a connection or TLS failure, a timeout, a non-2xx answer or a
 *   body that is not JSON.
 *
 * @example
 * ```ts
 * const target = webhookTarget({ url: "https://127.0.0.1:9443/validate" });
 * await postReview(target, undefined, { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview" }, 10_000).catch((e: WebhookCallError) => e.kind);
 * ```
 */
export async function postReview(target: WebhookTarget, caBundle: string | undefined, body: unknown, timeoutMs: number): Promise<unknown> {
  const payload = Buffer.from(JSON.stringify(body));
  const ca = caBundle ? Buffer.from(caBundle, "base64").toString("utf8") : undefined;
  const url = withTimeout(target.url, timeoutMs);
  const post = `Post ${JSON.stringify(withTimeout(target.shownUrl ?? target.url, timeoutMs).href)}`;
  return await new Promise<unknown>((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "content-length": payload.length },
      ...(ca !== undefined ? { ca } : {}),
      // An IP address is checked against the certificate's IP SANs; TLS SNI takes names only.
      ...(isIP(target.servername) ? {} : { servername: target.servername }),
      agent: keepAliveAgent,
    });
    const timer = setTimeout(() => {
      req.destroy(new WebhookCallError("timeout", `${post}: context deadline exceeded`));
    }, timeoutMs);
    const fail = (err: unknown) => {
      clearTimeout(timer);
      if (err instanceof WebhookCallError) reject(err);
      else reject(new WebhookCallError("unreachable", `${post}: ${goNetError(err, url, target.servername)}`));
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
          reject(new WebhookCallError("status", statusMessage(code, text)));
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch (err) {
          // client-go's decoder reads the kind first: its words for a body that is not JSON.
          reject(new WebhookCallError("decode", `couldn't get version/kind; json parse error: ${err instanceof Error ? err.message : String(err)}`));
        }
      });
    });
    req.end(payload);
  });
}

/**
 * The URL with kube-apiserver's `timeout` query (`10s`), as its REST client adds it.
 *
 * @example
 * ```ts
 * withTimeout(new URL("https://127.0.0.1:9443/validate"), 10_000).href; // → "https://127.0.0.1:9443/validate?timeout=10s"
 * ```
 */
export function withTimeout(url: URL, timeoutMs: number): URL {
  const out = new URL(url.href);
  out.searchParams.set("timeout", `${timeoutMs / 1000}s`);
  return out;
}

/** A Node connection or TLS error as Go's net/http and crypto/tls word it. */
function goNetError(err: unknown, url: URL, servername: string): string {
  const e = err as { code?: string; message?: string; cert?: { subjectaltname?: string } };
  const port = url.port || "443";
  switch (e?.code) {
    case "ECONNREFUSED":
      return `dial tcp ${url.hostname}:${port}: connect: connection refused`;
    case "ECONNRESET":
      return "EOF";
    case "ENOTFOUND":
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
    case "UNABLE_TO_GET_ISSUER_CERT":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    case "CERT_HAS_EXPIRED":
    case "CERT_NOT_YET_VALID":
      return "tls: failed to verify certificate: x509: certificate has expired or is not yet valid";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `tls: failed to verify certificate: x509: ${hostnameError(servername, e.cert?.subjectaltname ?? "")}`;
    default:
      return e?.message ?? String(err);
  }
}

/** Go's `x509.HostnameError` text for a certificate whose names do not include `host`. */
function hostnameError(host: string, subjectAltName: string): string {
  const entries = subjectAltName.split(/,\s*/).filter(Boolean);
  const ip = isIP(host) !== 0;
  const names = entries.filter((n) => n.startsWith(ip ? "IP Address:" : "DNS:")).map((n) => n.slice(n.indexOf(":") + 1));
  if (ip && names.length === 0) return `cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
  if (names.length === 0) return `certificate is not valid for any names, but wanted to match ${host}`;
  return `certificate is valid for ${names.join(", ")}, not ${host}`;
}

/**
 * A non-2xx answer as client-go's REST client words it for a body that is not a Status
 * (`NewGenericServerResponse`), or the Status's own message.
 */
function statusMessage(code: number, text: string): string {
  try {
    const status = JSON.parse(text) as { kind?: string; message?: string };
    if (status?.kind === "Status" && typeof status.message === "string") return status.message;
  } catch {
    // not JSON: worded below
  }
  const body = text.trim();
  switch (code) {
    case 400: return "the server rejected our request for an unknown reason";
    case 401: return "the server has asked for the client to provide credentials";
    case 403: return body || "forbidden";
    case 404: return "the server could not find the requested resource";
    case 429: return "the server has received too many requests and has asked us to try again later";
    case 503: return "the server is currently unable to handle the request";
    case 504: return "the server was unable to return a response in the time allotted, but may still be processing the request";
    default:
      return code >= 500
        ? `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`
        : `the server responded with the status code ${code} but did not return more information`;
  }
}
