/**
 * A small HTTPS admission webhook server for LocalCluster's admission tests: each path answers
 * with a handler's response (or holds the call until released), and every review is recorded.
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { selfSignedCertificate } from "../../../src/testing/auth/self-signed.ts";

/** The AdmissionRequest LocalCluster sent. */
export type SentRequest = Record<string, any>;

/** What a handler returns: the review `response` without its uid (filled in), or `hold` to never answer. */
export type Handler = (req: SentRequest) => Record<string, unknown> | "hold" | Promise<Record<string, unknown> | "hold">;

export class FakeWebhook {
  readonly server: Server;
  readonly caBundle: string;
  readonly calls: { path: string; query: string; request: SentRequest }[] = [];
  readonly handlers = new Map<string, Handler>();
  readonly #held: (() => void)[] = [];
  url = "";

  private constructor(server: Server, caBundle: string) {
    this.server = server;
    this.caBundle = caBundle;
  }

  static async start(): Promise<FakeWebhook> {
    const tls = selfSignedCertificate();
    let self!: FakeWebhook;
    const server = createServer({ ...tls }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const url = new URL(req.url ?? "/", "https://x");
        const review = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        self.calls.push({ path: url.pathname, query: url.search, request: review.request });
        const handler = self.handlers.get(url.pathname) ?? (() => ({ allowed: true }));
        const answer = await handler(review.request);
        if (answer === "hold") {
          self.#held.push(() => res.destroy());
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        // Answered in the review's own version (a v1beta1 webhook answers v1beta1).
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: "AdmissionReview", response: { uid: review.request.uid, ...answer } }));
      });
    });
    self = new FakeWebhook(server, Buffer.from(tls.cert).toString("base64"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    self.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return self;
  }

  /** Calls to one path. */
  to(path: string): SentRequest[] {
    return this.calls.filter((c) => c.path === path).map((c) => c.request);
  }

  async stop(): Promise<void> {
    for (const release of this.#held.splice(0)) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A base64 JSON patch, as a mutating webhook answers. */
export function jsonPatch(ops: unknown[]): { allowed: true; patch: string; patchType: "JSONPatch" } {
  return { allowed: true, patch: Buffer.from(JSON.stringify(ops)).toString("base64"), patchType: "JSONPatch" };
}
