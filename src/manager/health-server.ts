/** The HTTP endpoints kubelet and Prometheus poll: /healthz, /readyz and /metrics. */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OperatorRuntimeError } from "../errors.ts";
import type { Runnable } from "../util/runnable.ts";
import type { Metrics } from "./metrics.ts";
import { checkObject } from "../util/check-args.ts";

/**
 * A probe: true = pass. A throw or rejection fails the probe with its message.
 *
 * @example
 * ```ts
 * const readyz: HealthCheck = () => cache.hasSynced();
 * ```
 */
export type HealthCheck = () => boolean | Promise<boolean>;

/**
 * Options of {@link HealthServer}.
 *
 * @example
 * ```ts
 * const options: HealthServerOptions = { port: 8080, host: "0.0.0.0", metrics: mgr.metrics,
 *   checks: { healthz: () => true, readyz: () => mgr.ready() } };
 * ```
 */
export interface HealthServerOptions {
  /** Port to listen on; 0 (default) picks a free one (see {@link HealthServer.port}). */
  port?: number;
  /** Address to bind (default 127.0.0.1; use 0.0.0.0 in a pod so kubelet and Prometheus reach it). */
  host?: string;
  /** Served on /metrics; without it /metrics answers 404. */
  metrics?: Pick<Metrics, "text" | "contentType">;
  /**
   * Who may read /metrics: `"loopback"` (default) answers 403 to any peer that is not this
   * machine, so binding `0.0.0.0` for kubelet probes does not open the metrics to every pod in
   * the cluster; `"any"` serves every peer (restrict the port with a NetworkPolicy, or put an
   * authenticating proxy in front). `/healthz` and `/readyz` answer every peer.
   */
  metricsAccess?: "loopback" | "any";
  /** Liveness (/healthz) and readiness (/readyz). */
  checks: { healthz: HealthCheck; readyz: HealthCheck };
}

const TEXT = "text/plain; charset=utf-8";

/**
 * Serves `GET /metrics` (Prometheus text, `text/plain; version=0.0.4; charset=utf-8`),
 * `GET /healthz` and `GET /readyz` (200 `ok`, or 500 with the reason), on one port. Other paths
 * answer 404, other methods on these paths 405. HEAD is answered like GET without a body.
 * controller-runtime serves metrics (8080) and probes (8081) on two ports; one is enough here —
 * point both the probes and the scrape at it.
 *
 * Guarantees: `start()` resolves once listening (rejects when the port is taken); `stop()`
 * closes the listener and every open connection, keep-alive ones included, and is idempotent.
 *
 * Caveats: checks run on every request with no timeout of their own (kubelet's probe timeout
 * applies); keep them cheap. The `signal` of `start()` only aborts a start.
 *
 * RBAC: none.
 *
 * @example
 * ```ts
 * import { Metrics } from "operator-runtime/controller";
 *
 * const metrics = new Metrics({ defaultMetrics: true });
 * const server = new HealthServer({ port: 8080, host: "0.0.0.0", metrics,
 *   checks: { healthz: () => true, readyz: () => cache.hasSynced() } });
 * await server.start(signal);
 * console.log(`curl http://127.0.0.1:${server.port}/readyz`);
 * await server.stop();
 * ```
 */
export class HealthServer implements Runnable {
  readonly name = "health-server";
  readonly #port: number;
  readonly #host: string;
  readonly #metrics: HealthServerOptions["metrics"];
  readonly #checks: HealthServerOptions["checks"];
  readonly #metricsAccess: "loopback" | "any";
  #server: Server | undefined;
  #stopping: Promise<void> | undefined;

  constructor(options: HealthServerOptions) {
    checkObject("new HealthServer(options)", "options", options, "an options object ({ port?, host?, metrics?, checks? })");
    this.#port = options.port ?? 0;
    this.#host = options.host ?? "127.0.0.1";
    this.#metrics = options.metrics;
    this.#checks = options.checks;
    this.#metricsAccess = options.metricsAccess ?? "loopback";
  }

  /** The address listened on, e.g. `127.0.0.1`. Throws before start. */
  get host(): string {
    const address = this.#server?.address();
    if (!address || typeof address === "string") {
      throw new OperatorRuntimeError("HealthServer.host: the server is not listening. Fix: await start() first.");
    }
    return (address as AddressInfo).address;
  }

  /** The port listened on (the chosen one when started with 0). Throws before start. */
  get port(): number {
    const address = this.#server?.address();
    if (!address || typeof address === "string") {
      throw new OperatorRuntimeError("HealthServer.port: the server is not listening. Fix: await start() first.");
    }
    return (address as AddressInfo).port;
  }

  /** Listens; resolves once the port is bound. */
  async start(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#server) throw new OperatorRuntimeError("HealthServer.start: already started.");
    const server = createServer((req, res) => void this.#handle(req, res));
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) =>
        reject(new OperatorRuntimeError(`HealthServer: cannot listen on ${this.#host}:${this.#port}: ${err.message}. Fix: choose a free port (0 picks one).`, { cause: err }));
      server.once("error", failed);
      server.listen(this.#port, this.#host, () => {
        server.off("error", failed);
        resolve();
      });
    });
    this.#server = server;
  }

  /** Closes the listener and all connections; resolves when closed. */
  stop(): Promise<void> {
    const server = this.#server;
    if (!server) return Promise.resolve();
    this.#stopping ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return this.#stopping;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const known = path === "/healthz" || path === "/readyz" || (path === "/metrics" && this.#metrics !== undefined);
    const head = req.method === "HEAD";
    const send = (code: number, body: string, contentType = TEXT) => {
      res.writeHead(code, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" });
      res.end(head ? undefined : body);
    };
    if (!known) return send(404, `404 page not found: ${path}\n`);
    if (req.method !== "GET" && !head) {
      res.setHeader("Allow", "GET, HEAD");
      return send(405, `method ${req.method} not allowed\n`);
    }
    if (path === "/metrics" && this.#metricsAccess === "loopback" && !isLoopback(req.socket.remoteAddress)) {
      return send(403, "/metrics is served to this machine only (metricsAccess: \"loopback\", the default). Fix: set metricsAccess: \"any\" and restrict who reaches the port (a NetworkPolicy, or an authenticating proxy)\n");
    }
    try {
      if (path === "/metrics") return send(200, await this.#metrics!.text(), this.#metrics!.contentType);
      const check = path === "/healthz" ? this.#checks.healthz : this.#checks.readyz;
      const ok = await check();
      send(ok ? 200 : 500, ok ? "ok" : `${path.slice(1)} check failed: ${path === "/healthz" ? "not healthy" : "not ready"}\n`);
    } catch (err) {
      const what = path === "/metrics" ? "metrics collection" : `${path.slice(1)} check`;
      send(500, `${what} failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

/** Whether a peer address is this machine's loopback (IPv4 127/8, IPv6 ::1, or IPv4-mapped). */
function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}
