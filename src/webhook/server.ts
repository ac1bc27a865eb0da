/**
 * The HTTPS server of admission and conversion webhooks: one path per registered webhook plus
 * `/convert`, TLS from a mounted Secret (reloaded on rotation) or, in development, from a CA and
 * serving certificate generated at start.
 *
 * @module
 */
import { createServer } from "node:https";
import type { Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { createSecureContext } from "node:tls";
import { readFile } from "node:fs/promises";
import { watch } from "node:fs";
import type { FSWatcher } from "node:fs";
import { join } from "node:path";
import { OperatorRuntimeError } from "../errors.ts";
import type { Logger } from "../log/logger.ts";
import { silentLogger } from "../log/logger.ts";
import type { Clock } from "../util/clock.ts";
import type { Runnable } from "../util/runnable.ts";
import { checkObject } from "../util/check-args.ts";
import { generateCertificateAuthority, generateServingCertificate } from "../util/x509.ts";
import { handleAdmission } from "./admission.ts";
import type { AdmissionResponse } from "./admission.ts";
import { handleConversion } from "./conversion.ts";
import { CONVERSION_PATH } from "./types.ts";
import type { ConversionRequest } from "./conversion.ts";
import type { WebhookMetrics, WebhookOutcome, WebhookType } from "./metrics-hooks.ts";
import type { AdmissionRegistration, AdmissionRequest, ConversionRegistration } from "./types.ts";

/**
 * The webhook server's default port (controller-runtime's).
 *
 * @example
 * ```ts
 * new WebhookServer({ port: DEFAULT_WEBHOOK_PORT }); // 9443
 * ```
 */
export const DEFAULT_WEBHOOK_PORT = 9443;

/**
 * The largest request body accepted: 7 MiB (an UPDATE review carries the object and the old
 * object, each up to kube-apiserver's 3 MiB request limit; controller-runtime's limit too). A
 * larger one is answered 413.
 *
 * @example
 * ```ts
 * MAX_REVIEW_BYTES; // 7340032
 * ```
 */
export const MAX_REVIEW_BYTES = 7 * 1024 * 1024;


/**
 * Where the webhook server listens unless told: all interfaces in a pod (Kubernetes sets
 * `KUBERNETES_SERVICE_HOST` in every container), loopback elsewhere.
 *
 * @example
 * ```ts
 * defaultWebhookHost({ KUBERNETES_SERVICE_HOST: "10.96.0.1" }); // "0.0.0.0"
 * defaultWebhookHost({});                                        // "127.0.0.1"
 * ```
 */
export function defaultWebhookHost(env: Readonly<Record<string, string | undefined>>): string {
  return env.KUBERNETES_SERVICE_HOST ? "0.0.0.0" : "127.0.0.1";
}

/**
 * A certificate reload of a {@link WebhookServer} serving from `certDir`: `loaded` (the next
 * handshake presents it) or `rejected` (unreadable or a broken pair: the previous one stays).
 *
 * @example
 * ```ts
 * const onReload = (e: CertificateReloadEvent) => console.log(e.status, e.error?.message);
 * ```
 */
export interface CertificateReloadEvent {
  status: "loaded" | "rejected";
  error?: Error;
}

/**
 * Options of {@link WebhookServer}.
 *
 * @example
 * ```ts
 * const options: WebhookServerOptions = { port: 9443, certDir: "/tmp/k8s-webhook-server/serving-certs" };
 * ```
 */
export interface WebhookServerOptions {
  /** Port (0 picks a free one). Default 9443. */
  port?: number;
  /** Address to bind. Default {@link defaultWebhookHost}: 0.0.0.0 in a pod, 127.0.0.1 elsewhere. */
  host?: string;
  /**
   * Directory of the serving certificate (`tls.crt`, `tls.key`, optional `ca.crt`), as a
   * mounted `kubernetes.io/tls` Secret (or cert-manager's) lays it out. Reloaded when it
   * changes. Without it (development), a CA and a serving certificate for `localhost`,
   * `127.0.0.1`, `::1` and {@link WebhookServerOptions.dnsNames} are generated at start.
   */
  certDir?: string;
  /** Certificate file name in `certDir`. Default `tls.crt`. */
  certName?: string;
  /** Key file name in `certDir`. Default `tls.key`. */
  keyName?: string;
  /** More DNS names of the generated development certificate (e.g. `host.docker.internal`). */
  dnsNames?: readonly string[];
  /** Where the server logs (denials at info, failures at error). Default: nothing. */
  logger?: Logger;
  /** Metric hooks (the Manager passes its `Metrics`). */
  metrics?: WebhookMetrics;
  /** Timers of handler timeouts (tests inject a manual clock). Default: the real clock. */
  clock?: Clock;
  /** How often `certDir` is re-read besides watching it (ms). Default 10 000. */
  certPollIntervalMs?: number;
  /** Called after each reload attempt of `certDir` that found new files. */
  onCertificateReload?: (event: CertificateReloadEvent) => void;
  /** How long `stop()` lets in-flight requests finish before closing their connections (ms). Default 10 000. */
  shutdownGraceMs?: number;
}

const JSON_TYPE = "application/json";

/**
 * Serves admission webhooks (one POST path per {@link AdmissionRegistration}) and conversions
 * ({@link CONVERSION_PATH} for every {@link ConversionRegistration}) over HTTPS.
 *
 * Requests: a POST of an `AdmissionReview` (`admission.k8s.io/v1`, or `v1beta1`, answered in
 * the same version) or a `ConversionReview` (`apiextensions.k8s.io/v1` or `v1beta1`) as JSON;
 * the answer is 200 with the review's `response` (see {@link handleAdmission},
 * {@link handleConversion}). A request the server cannot take is answered with a `v1` `Status`
 * JSON and never reaches a handler: 404 for an unknown path, 400 for another method than POST,
 * a content type other than JSON, a body that is not JSON, the wrong apiVersion/kind, or a
 * missing `request`, `request.uid` or `request.operation`, and 413 for a body over 7 MiB
 * ({@link MAX_REVIEW_BYTES}: an UPDATE review carries the object twice, each up to
 * kube-apiserver's 3 MiB request limit; controller-runtime allows the same).
 *
 * Certificates: with `certDir`, `tls.crt` and `tls.key` are read at start (a missing or broken
 * pair fails `start()`), then watched (`fs.watch` on the directory, which sees a Secret
 * volume's `..data` symlink swap, and a poll every `certPollIntervalMs` where watching does
 * not work); a new pair is installed with `setSecureContext`, so the next handshake presents
 * it and open connections keep theirs. A broken new pair is logged at error and the old one
 * stays. `caBundle` is then base64 of `ca.crt` when the directory has one (cert-manager's
 * Secrets do), else undefined. Without `certDir`, a new CA and serving certificate are made at
 * start and `caBundle` is that CA.
 *
 * Guarantees: `start()` resolves once listening (rejects when the port is taken or the
 * certificates cannot be read); a handler's failure never crashes the server; `stop()` stops
 * accepting, lets in-flight requests finish for `shutdownGraceMs`, aborts their signals and
 * closes every connection, and is idempotent. Registrations may be added before or after start.
 *
 * RBAC: none.
 *
 * @example
 * ```ts
 * import type { AdmissionRegistration } from "operator-runtime/webhook";
 * declare const registration: AdmissionRegistration;
 *
 * const server = new WebhookServer({ port: 0 });
 * server.register(registration);
 * await server.start(signal);
 * console.log(server.url, server.caBundle); // https://127.0.0.1:40123, LS0tLS1CRUdJTi…
 * await server.stop();
 * ```
 */
export class WebhookServer implements Runnable {
  readonly name = "webhook-server";
  readonly needsLeaderElection = false;
  readonly #port: number;
  readonly #host: string;
  readonly #options: WebhookServerOptions;
  readonly #logger: Logger;
  readonly #admission = new Map<string, AdmissionRegistration>();
  readonly #conversions: ConversionRegistration[] = [];
  readonly #abort = new AbortController();
  #server: Server | undefined;
  #caBundle: string | undefined;
  #current: { cert: string; key: string } | undefined;
  #rejected: string | undefined;
  #watcher: FSWatcher | undefined;
  #poll: NodeJS.Timeout | undefined;
  #debounce: NodeJS.Timeout | undefined;
  #reloading: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;
  /** The start in progress (or done): a stop() meanwhile waits for it, then closes what it opened. */
  #starting: Promise<void> | undefined;

  constructor(options: WebhookServerOptions = {}) {
    checkObject("new WebhookServer(options)", "options", options, "an options object ({ port?, host?, certDir?, … })");
    const port = options.port ?? DEFAULT_WEBHOOK_PORT;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new TypeError(`new WebhookServer(options): port must be a whole number from 0 to 65535 (0 picks a free one), got ${JSON.stringify(port)}.`);
    }
    this.#port = port;
    this.#host = options.host ?? defaultWebhookHost(process.env);
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Serves `reg` on its path. Throws when another webhook has that path.
   *
   * @example
   * ```ts
   * import type { AdmissionRegistration } from "operator-runtime/webhook";
   * declare const server: WebhookServer;
   * declare const registration: AdmissionRegistration;
   * server.register(registration);
   * ```
   */
  register(reg: AdmissionRegistration): void {
    if (reg.path === CONVERSION_PATH || this.#admission.has(reg.path)) {
      throw new OperatorRuntimeError(`WebhookServer: path ${reg.path} is served already${reg.path === CONVERSION_PATH ? " (conversions)" : ` (webhook ${this.#admission.get(reg.path)!.name})`}. Fix: give the webhook another path (options.path).`);
    }
    this.#admission.set(reg.path, reg);
  }

  /**
   * Serves `reg` on `/convert`. Throws when its group and kind have a conversion already.
   *
   * @example
   * ```ts
   * import type { ConversionRegistration } from "operator-runtime/webhook";
   * declare const server: WebhookServer;
   * declare const conversion: ConversionRegistration;
   * server.registerConversion(conversion);
   * ```
   */
  registerConversion(reg: ConversionRegistration): void {
    if (this.#conversions.some((c) => c.group === reg.group && c.kind === reg.kind)) {
      throw new OperatorRuntimeError(`WebhookServer: a conversion of ${reg.kind}.${reg.group} is registered already.`);
    }
    this.#conversions.push(reg);
  }

  /** Whether it is listening (`start()` resolved and `stop()` not called). */
  get listening(): boolean {
    return this.#server?.listening === true && !this.#stopping;
  }

  /** The address listened on. Throws before start. */
  get host(): string {
    return this.#address("host").address;
  }

  /** The port listened on (the chosen one when started with 0). Throws before start. */
  get port(): number {
    return this.#address("port").port;
  }

  /**
   * `https://<host>:<port>` of the running server, for this machine: a wildcard bind (0.0.0.0,
   * ::) reads as loopback. Throws before start.
   */
  get url(): string {
    const { address, port, family } = this.#address("url");
    const host = address === "0.0.0.0" ? "127.0.0.1" : address === "::" ? "::1" : address;
    return `https://${family === "IPv6" ? `[${host}]` : host}:${port}`;
  }

  /**
   * Base64 of the PEM CA that signed the serving certificate: what a configuration's
   * `clientConfig.caBundle` holds. The generated CA in development; `ca.crt` of `certDir` when
   * present; undefined otherwise (and before start).
   */
  get caBundle(): string | undefined {
    return this.#caBundle;
  }

  #address(what: string): AddressInfo {
    const address = this.#server?.address();
    if (!address || typeof address === "string") {
      throw new OperatorRuntimeError(`WebhookServer.${what}: the server is not listening. Fix: await start() first.`);
    }
    return address;
  }

  /** Loads or generates the certificate, then listens; resolves once the port is bound. */
  async start(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#server || this.#starting) throw new OperatorRuntimeError("WebhookServer.start: already started.");
    const starting = this.#start(signal);
    this.#starting = starting;
    try {
      await starting;
    } catch (err) {
      // A failed start (a taken port, a missing certificate) may be tried again.
      if (this.#starting === starting) this.#starting = undefined;
      throw err;
    }
  }

  async #start(signal: AbortSignal): Promise<void> {
    const dir = this.#options.certDir;
    if (dir !== undefined) {
      const files = await this.#readCertDir(dir).catch((err: Error) => {
        throw new OperatorRuntimeError(`WebhookServer: cannot read the serving certificate from certDir ${dir}: ${err.message}. Fix: mount the webhook's TLS Secret there (tls.crt, tls.key), or leave certDir unset in development for a generated certificate.`, { cause: err });
      });
      try {
        createSecureContext({ cert: files.cert, key: files.key });
      } catch (err) {
        throw new OperatorRuntimeError(`WebhookServer: the certificate pair in certDir ${dir} is not usable: ${(err as Error).message}. Fix: ${this.#certName} and ${this.#keyName} must be a PEM certificate and its private key.`, { cause: err });
      }
      this.#current = { cert: files.cert, key: files.key };
      this.#caBundle = files.ca ? Buffer.from(files.ca).toString("base64") : undefined;
    } else {
      const ca = generateCertificateAuthority({ commonName: "operator-runtime-webhook-ca" });
      const ips = ["127.0.0.1", "::1"];
      if (isIP(this.#host) && !["0.0.0.0", "::"].includes(this.#host) && !ips.includes(this.#host)) ips.push(this.#host);
      // An IP address among dnsNames becomes an IP SAN: Go's TLS (kube-apiserver's) matches an
      // address only against those.
      const names = ["localhost"];
      for (const n of this.#options.dnsNames ?? []) {
        if (!isIP(n)) names.push(n);
        else if (!ips.includes(n)) ips.push(n);
      }
      const serving = generateServingCertificate(ca, { dnsNames: names, ipAddresses: ips });
      this.#current = serving;
      this.#caBundle = Buffer.from(ca.cert).toString("base64");
    }
    const server = createServer({
      cert: this.#current.cert, key: this.#current.key,
      // kube-apiserver's client reuses idle connections for up to 90 s: keep them open longer,
      // so a reused connection is never one this server is closing. A client gets 10 s to send
      // its headers and 35 s for the whole request (the longest webhook timeout is 30 s).
      keepAliveTimeout: 95_000, headersTimeout: 10_000, requestTimeout: 35_000,
    }, (req, res) => void this.#handle(req, res));
    server.on("tlsClientError", (err) => this.#logger.debug("webhook TLS handshake failed", { error: err.message }));
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) =>
        reject(new OperatorRuntimeError(`WebhookServer: cannot listen on ${this.#host}:${this.#port}: ${err.message}. Fix: choose a free port (webhook: { port }).`, { cause: err }));
      server.once("error", failed);
      server.listen(this.#port, this.#host, () => {
        server.off("error", failed);
        resolve();
      });
    });
    this.#server = server;
    if (dir !== undefined) this.#watch(dir);
  }

  /** Stops accepting, lets in-flight requests finish (up to `shutdownGraceMs`), closes every connection. */
  stop(): Promise<void> {
    const server = this.#server;
    if (!server) {
      // A start still loading certificates or binding: let it finish, then close what it opened.
      const starting = this.#starting;
      return starting ? starting.then(() => this.#server && this.stop(), () => undefined) : Promise.resolve();
    }
    this.#stopping ??= new Promise<void>((resolve) => {
      this.#watcher?.close();
      clearInterval(this.#poll);
      clearTimeout(this.#debounce);
      const force = setTimeout(() => {
        this.#abort.abort(new DOMException("the webhook server is stopping", "AbortError"));
        server.closeAllConnections();
      }, this.#options.shutdownGraceMs ?? 10_000);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    });
    return this.#stopping;
  }

  /**
   * Re-reads `certDir` now and installs a new valid pair (what the watcher and the poll do).
   * Resolves when done; never rejects. Does nothing without `certDir` or before start.
   *
   * @example
   * ```ts
   * declare const server: WebhookServer;
   * await server.reloadCertificates();
   * ```
   */
  reloadCertificates(): Promise<void> {
    const dir = this.#options.certDir;
    if (dir === undefined || !this.#server) return Promise.resolve();
    // One reload at a time; a change during one is picked up by the next.
    const run = async () => {
      let files: { cert: string; key: string; ca: string | undefined };
      try {
        files = await this.#readCertDir(dir);
      } catch (err) {
        return this.#rejectPair(`${dir}: unreadable`, err as Error, "cannot read the new serving certificate: keeping the current one");
      }
      const fingerprint = `${files.cert}\0${files.key}`;
      if (files.cert === this.#current?.cert && files.key === this.#current.key) {
        this.#caBundle = files.ca ? Buffer.from(files.ca).toString("base64") : this.#caBundle;
        return;
      }
      if (fingerprint === this.#rejected) return;
      try {
        this.#server!.setSecureContext({ cert: files.cert, key: files.key });
      } catch (err) {
        return this.#rejectPair(fingerprint, err as Error, "the new serving certificate is not usable: keeping the current one");
      }
      this.#current = { cert: files.cert, key: files.key };
      this.#rejected = undefined;
      if (files.ca) this.#caBundle = Buffer.from(files.ca).toString("base64");
      this.#logger.info("webhook serving certificate reloaded", { certDir: dir });
      this.#options.onCertificateReload?.({ status: "loaded" });
    };
    const next = (this.#reloading ?? Promise.resolve()).then(run, run).catch(() => undefined);
    this.#reloading = next;
    return next;
  }

  #rejectPair(fingerprint: string, error: Error, msg: string): void {
    if (fingerprint === this.#rejected) return;
    this.#rejected = fingerprint;
    this.#logger.error(`webhook server: ${msg}`, { certDir: this.#options.certDir, error: error.message });
    this.#options.onCertificateReload?.({ status: "rejected", error });
  }

  get #certName(): string {
    return this.#options.certName ?? "tls.crt";
  }

  get #keyName(): string {
    return this.#options.keyName ?? "tls.key";
  }

  async #readCertDir(dir: string): Promise<{ cert: string; key: string; ca: string | undefined }> {
    const [cert, key, ca] = await Promise.all([
      readFile(join(dir, this.#certName), "utf8"),
      readFile(join(dir, this.#keyName), "utf8"),
      readFile(join(dir, "ca.crt"), "utf8").catch(() => undefined),
    ]);
    return { cert, key, ca: ca || undefined };
  }

  #watch(dir: string): void {
    const schedule = () => {
      clearTimeout(this.#debounce);
      // A Secret update swaps a symlink (one event); a hand-written update writes two files:
      // wait for the burst to end before reading.
      this.#debounce = setTimeout(() => void this.reloadCertificates(), 50);
      this.#debounce.unref();
    };
    try {
      this.#watcher = watch(dir, { persistent: false }, schedule);
      this.#watcher.on("error", (err) => {
        this.#logger.warn("webhook server: watching certDir failed; polling it only", { certDir: dir, error: err.message });
        this.#watcher?.close();
      });
    } catch (err) {
      this.#logger.warn("webhook server: cannot watch certDir; polling it only", { certDir: dir, error: (err as Error).message });
    }
    this.#poll = setInterval(() => void this.reloadCertificates(), this.#options.certPollIntervalMs ?? 10_000);
    this.#poll.unref();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const path = new URL(req.url ?? "/", "https://localhost").pathname;
    const reg = this.#admission.get(path);
    const conversion = path === CONVERSION_PATH && this.#conversions.length > 0;
    const metrics = this.#options.metrics;
    const known = reg !== undefined || conversion;
    if (known) metrics?.webhookInFlight(path, 1);
    let code = 0;
    const send = (status: number, body: unknown) => {
      code = status;
      const text = JSON.stringify(body);
      res.writeHead(status, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(text), ...(this.#stopping ? { Connection: "close" } : {}) });
      res.end(text);
    };
    const type: WebhookType = reg?.type ?? "conversion";
    const refuse = (status: number, message: string) => {
      if (known) metrics?.webhookOutcome(path, type, "errored");
      this.#logger.info("webhook request refused", { path, code: status, message });
      send(status, failureStatus(status, message));
    };
    try {
      if (!known) return send(404, failureStatus(404, `no webhook is served on ${path}: the server serves ${[...this.#admission.keys(), ...(this.#conversions.length ? [CONVERSION_PATH] : [])].join(", ") || "nothing"}`));
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST");
        return refuse(400, `${req.method} is not supported: a webhook takes a POST of ${conversion ? "a ConversionReview" : "an AdmissionReview"}`);
      }
      const contentType = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (contentType && contentType !== JSON_TYPE) return refuse(400, `contentType=${contentType}, expected application/json`);
      const body = await readBody(req, MAX_REVIEW_BYTES);
      if (body === TOO_LARGE) {
        refuse(413, `the request body is larger than ${MAX_REVIEW_BYTES} bytes (3 MiB), the largest a review may be`);
        res.once("finish", () => req.destroy());
        return;
      }
      let review: unknown;
      try {
        review = JSON.parse(body.toString("utf8"));
      } catch (err) {
        return refuse(400, `the request body is not JSON: ${(err as Error).message}`);
      }
      if (conversion) {
        const bad = checkReview(review, "ConversionReview", ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"]);
        if (bad) return refuse(400, bad);
        const r = (review as { apiVersion: string; request: ConversionRequest });
        if (typeof r.request.desiredAPIVersion !== "string" || !Array.isArray(r.request.objects)) {
          return refuse(400, "request.desiredAPIVersion (a string) and request.objects (an array) are required");
        }
        const { response, result } = handleConversion(this.#conversions, r.request, { logger: this.#logger });
        metrics?.webhookOutcome(path, "conversion", result === "converted" ? "allowed" : "errored");
        return send(200, { apiVersion: r.apiVersion, kind: "ConversionReview", response });
      }
      const bad = checkReview(review, "AdmissionReview", ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"]);
      if (bad) return refuse(400, bad);
      const r = review as { apiVersion: string; request: AdmissionRequest };
      if (!["CREATE", "UPDATE", "DELETE", "CONNECT"].includes(r.request.operation)) {
        return refuse(400, `request.operation must be CREATE, UPDATE, DELETE or CONNECT, got ${JSON.stringify(r.request.operation)}`);
      }
      const hungUp = new AbortController();
      const onClose = () => { if (!res.writableFinished) hungUp.abort(new DOMException("the API server closed the connection", "AbortError")); };
      res.once("close", onClose);
      const signal = AbortSignal.any([hungUp.signal, this.#abort.signal]);
      const { response, result } = await handleAdmission(reg!, r.request, { signal, logger: this.#logger, ...(this.#options.clock ? { clock: this.#options.clock } : {}) });
      res.off("close", onClose);
      metrics?.webhookOutcome(path, type, result as WebhookOutcome);
      if (!res.destroyed) send(200, { apiVersion: r.apiVersion, kind: "AdmissionReview", response: response satisfies AdmissionResponse });
    } catch (err) {
      this.#logger.error("webhook request failed", { path, error: err });
      if (!res.headersSent && !res.destroyed) send(500, failureStatus(500, `internal error: ${(err as Error)?.message ?? String(err)}`));
    } finally {
      if (known) {
        metrics?.webhookInFlight(path, -1);
        metrics?.webhookRequest(path, code || 500, (performance.now() - started) / 1000);
      }
    }
  }
}

const TOO_LARGE: unique symbol = Symbol("too large");

/** The body, or TOO_LARGE past `limit` bytes (then the rest is drained, up to 4× the limit, and dropped). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    let size = 0;
    const chunks: Buffer[] = [];
    let over = Number.isFinite(declared) && declared > limit;
    if (over) resolve(TOO_LARGE);
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (over) {
        if (size > 4 * limit) req.destroy();
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => { if (!over) resolve(Buffer.concat(chunks)); });
    req.on("error", (err) => { if (!over) reject(err); });
  });
}

/** Why a review cannot be taken, or undefined. */
function checkReview(review: unknown, kind: string, apiVersions: readonly string[]): string | undefined {
  const a = /^[AEIOU]/.test(kind) ? "an" : "a";
  if (typeof review !== "object" || review === null || Array.isArray(review)) return `the request body must be ${a} ${kind} object`;
  const r = review as { apiVersion?: unknown; kind?: unknown; request?: unknown };
  if (r.kind !== kind || !apiVersions.includes(r.apiVersion as string)) {
    return `expected ${a} ${kind} of apiVersion ${apiVersions.join(" or ")}, got apiVersion ${JSON.stringify(r.apiVersion)}, kind ${JSON.stringify(r.kind)}`;
  }
  if (typeof r.request !== "object" || r.request === null) return `the ${kind} has no request`;
  const uid = (r.request as { uid?: unknown }).uid;
  if (typeof uid !== "string" || uid === "") return `the ${kind} has no request.uid`;
  return undefined;
}

/** A `v1` Status of a failed request. */
function failureStatus(code: number, message: string): object {
  const reason = code === 404 ? "NotFound" : code === 413 ? "RequestEntityTooLarge" : code === 400 ? "BadRequest" : "InternalError";
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, code };
}
