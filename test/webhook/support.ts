/**
 * Test helpers of the webhook tests: POST a review over real HTTPS trusting only the server's
 * CA bundle, and build AdmissionReviews.
 */
import { request } from "node:https";
import type { PeerCertificate } from "node:tls";
import type { KubeObject } from "../../src/kinds/kube-object.ts";
import type { AdmissionRequest } from "../../src/webhook/types.ts";

/** An HTTPS answer: status, headers, parsed JSON (or the text), the server certificate presented. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
  peer: PeerCertificate;
}

/** Sends `body` (JSON-encoded unless a string/Buffer) to `url` trusting `caBundle` (base64 PEM) only. */
export function post(url: string, caBundle: string, body: unknown, opts: { method?: string; headers?: Record<string, string | number> } = {}): Promise<Answer> {
  const payload = typeof body === "string" || Buffer.isBuffer(body) ? Buffer.from(body) : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: opts.method ?? "POST",
      ca: Buffer.from(caBundle, "base64").toString("utf8"),
      agent: false,
      headers: opts.headers?.["transfer-encoding"] ? { "content-type": "application/json", ...opts.headers } : { "content-type": "application/json", "content-length": payload.length, ...opts.headers },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const peer = (res.socket as import("node:tls").TLSSocket).getPeerCertificate();
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text, peer });
      });
    });
    if (opts.method === "GET") req.end();
    else req.end(payload);
  });
}

let uid = 0;

/** An `admission.k8s.io/v1` AdmissionReview of a Greeting (example.com/v1). */
export function review(request: Partial<AdmissionRequest> & { object?: KubeObject | null; oldObject?: KubeObject | null }, apiVersion = "admission.k8s.io/v1"): { apiVersion: string; kind: string; request: AdmissionRequest } {
  return {
    apiVersion, kind: "AdmissionReview",
    request: {
      uid: `uid-${++uid}`,
      kind: { group: "example.com", version: "v1", kind: "Greeting" },
      resource: { group: "example.com", version: "v1", resource: "greetings" },
      operation: "CREATE",
      userInfo: { username: "alice", groups: ["system:authenticated"] },
      namespace: "default",
      name: "hello",
      ...request,
    } as AdmissionRequest,
  };
}

/** A Greeting object. */
export function greeting(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "hello", namespace: "default", ...metadata }, spec };
}

/** Applies an RFC 6902 patch of add/remove/replace operations (the test's own, independent of the server's diff). */
export function applyPatch(doc: unknown, ops: { op: string; path: string; value?: unknown }[]): unknown {
  const root = { doc: structuredClone(doc) } as Record<string, unknown>;
  for (const op of ops) {
    const segments = op.path === "" ? [] : op.path.slice(1).split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    let parent: any = root;
    let key: string | number = "doc";
    for (const s of segments) {
      parent = parent[key];
      key = Array.isArray(parent) ? (s === "-" ? parent.length : Number(s)) : s;
    }
    if (op.op === "remove") {
      if (!(key in parent)) throw new Error(`remove of missing ${op.path}`);
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
    } else if (op.op === "add") {
      if (Array.isArray(parent)) {
        if ((key as number) > parent.length) throw new Error(`add past the end at ${op.path}`);
        parent.splice(key as number, 0, op.value);
      } else parent[key] = op.value;
    } else if (op.op === "replace") {
      if (!(key in parent)) throw new Error(`replace of missing ${op.path}`);
      parent[key] = op.value;
    } else throw new Error(`unexpected op ${op.op}`);
  }
  return root.doc;
}
