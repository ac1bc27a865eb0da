/**
 * The HTTP front of LocalCluster: in authorization mode authenticates and authorizes each
 * request first (401/403), then routes it to discovery, OpenAPI or the resource handlers,
 * applies injected faults, logs every resource request, and answers errors as `Status`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiContext, ResourceRequest } from "./api-context.ts";
import type { ActiveFault, ApiServerVerb, FaultSpec, ServedRequestRecord } from "./faults.ts";
import { API_SERVER_VERBS, checkFault, faultStatus } from "./faults.ts";
import { RequestLog, matchesRequest } from "../util/request-log.ts";
import { parseResourcePath, queryBool, rawPathOf } from "./request-info.ts";
import { StatusError, methodNotAllowed } from "./status.ts";
import { sendError, sendJson } from "./http-io.ts";
import { handleGet, handleList, handleWatch } from "./read-handlers.ts";
import { handleCreate, handleDelete, handleDeleteCollection, handlePatch, handleUpdate } from "./write-handlers.ts";
import { OPENAPI_V2_PROTOBUF, openApiGroupVersionJson, openApiRoot, openApiV2Json } from "./views/openapi.ts";
import { openApiV2Protobuf } from "./views/openapi-v2-protobuf.ts";
import { pathSegmentNameErrors } from "./names.ts";
import { getScale } from "./scale.ts";
import { toViewAsync } from "./object-view.ts";
import { nonResourceAttributes, requestAttributes } from "./auth/attributes.ts";
import { handleReview, isReview } from "./auth/reviews.ts";
import type { UserInfo } from "./auth/user-info.ts";
import { EMULATED_VERSION } from "./openapi/emulated-version.ts";

/** The Kubernetes release LocalCluster emulates: kube-apiserver v1.36.2's own `/version` answer. */
const VERSION = JSON.stringify({ ...EMULATED_VERSION, gitCommit: "localcluster" });

/** Requests LocalCluster's request log keeps by default (about 2.5 MB of records). */
export const DEFAULT_REQUEST_LOG_SIZE = 10_000;

/** The log's verb for a denied non-resource request, by HTTP method. */
const NON_RESOURCE_VERBS: Readonly<Record<string, ApiServerVerb>> = { GET: "get", POST: "create", PUT: "update", PATCH: "patch", DELETE: "delete" };

/** Routes and serves API requests. */
export class ApiServer {
  readonly ctx: ApiContext;
  readonly log: RequestLog<ServedRequestRecord>;
  readonly faults: ActiveFault[] = [];
  /** host:port for discovery's serverAddressByClientCIDRs. */
  serverAddress = "127.0.0.1:0";

  /** `requestLogSize`: requests the log keeps (default {@link DEFAULT_REQUEST_LOG_SIZE}). */
  constructor(ctx: ApiContext, options: { requestLogSize?: number } = {}) {
    this.ctx = ctx;
    this.log = new RequestLog<ServedRequestRecord>({
      maxRecords: options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE,
      verbs: API_SERVER_VERBS,
    });
  }

  /** The node:http request listener. */
  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    this.#serve(req, res).catch((err) => sendError(res, err));
  };

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = parseResourcePath(rawPathOf(req.url ?? "/"));
    const method = req.method ?? "GET";
    const access = this.ctx.access;
    if (!path) {
      if (access && !access.isPublic(url.pathname)) {
        let user: UserInfo | undefined;
        try {
          user = access.identify(req);
          access.authorize(nonResourceAttributes(user, method.toLowerCase(), url.pathname));
        } catch (err) {
          // Denials of non-resource paths (/metrics, /apis…) are logged too, under the path.
          const code = sendError(res, err);
          const verb = Object.hasOwn(NON_RESOURCE_VERBS, method) ? NON_RESOURCE_VERBS[method] : undefined;
          if (verb) this.log.record({ verb, resource: url.pathname, code, injected: false, ...(user ? { user: user.name } : {}) });
          return;
        }
      }
      this.#nonResource(url, req, res);
      return;
    }
    const verb = verbOf(method, path.name !== undefined, url.searchParams);
    const resource = path.subresource ? `${path.plural}/${path.subresource}` : path.plural;
    // Authentication comes first, as in kube-apiserver: a 401 is logged like any answer.
    let user: UserInfo | undefined;
    if (access) {
      try {
        user = access.identify(req);
      } catch (err) {
        const code = sendError(res, err);
        if (verb !== undefined) this.log.record({ verb, resource, namespace: path.namespace, name: path.name, code, injected: false });
        return;
      }
    }
    if (verb === undefined) {
      // No API verb for this HTTP method (HEAD, OPTIONS, …): nothing to match or log.
      sendError(res, methodNotAllowed());
      return;
    }
    const record = { verb, resource, namespace: path.namespace, name: path.name, ...(user ? { user: user.name } : {}) };
    const attributes = user ? requestAttributes(user, verb, path, url.searchParams) : undefined;
    if (access && attributes) {
      try {
        access.authorize(attributes);
      } catch (err) {
        this.log.record({ ...record, code: sendError(res, err), injected: false });
        return;
      }
    }
    const dryRun = url.searchParams.has("dryRun");
    const fault = this.#takeFault(record, dryRun);
    if (fault?.spec.latencyMs) await new Promise((r) => setTimeout(r, fault.spec.latencyMs));
    if (fault?.spec.code) {
      sendError(res, faultError(fault.spec, fault.spec.code));
      this.log.record({ ...record, code: fault.spec.code, injected: true });
      return;
    }
    let code = 500;
    let r: ResourceRequest | undefined;
    try {
      const type = this.ctx.registry.byPath(path.group, path.version, path.plural);
      if (!type) throw new StatusError(404, "NotFound", "the server could not find the requested resource", {});
      const nameErrors = path.name === undefined ? [] : pathSegmentNameErrors(path.name);
      if (nameErrors.length) throw new StatusError(400, "BadRequest", `Name parameter invalid: ${JSON.stringify(path.name)}: ${nameErrors.join(";")}`);
      if (path.subresource !== undefined && !(path.subresource === "status" && type.status) && !(path.subresource === "scale" && type.scale)
        && !(path.subresource === "finalize" && type.kind === "Namespace")) {
        throw new StatusError(404, "NotFound", "the server could not find the requested resource", {});
      }
      if (type.namespaced && path.namespace === undefined && path.name !== undefined) {
        throw new StatusError(404, "NotFound", "the server could not find the requested resource", {});
      }
      if (!type.namespaced && path.namespace !== undefined) {
        throw new StatusError(404, "NotFound", "the server could not find the requested resource", {});
      }
      r = { req, res, type, path, query: url.searchParams, verb };
      if (verb === "create" && path.name === undefined && this.faults.some((f) => f.spec.name !== undefined)) {
        // A fault on a create by name (the object a POST creates is named in its body only).
        const req2 = r;
        req2.faultByName = async (name) => {
          const f = this.#takeFault({ ...record, name }, dryRun);
          if (f?.spec.latencyMs) await new Promise((done) => setTimeout(done, f.spec.latencyMs));
          if (!f?.spec.code) return;
          req2.injected = true;
          throw faultError(f.spec, f.spec.code);
        };
      }
      if (user && attributes) {
        r.user = user;
        const admit = access!.writeAdmission(user, { type, verb, namespace: attributes.namespace || undefined, name: path.name, subresource: path.subresource });
        if (admit) r.admit = admit;
      }
      await this.#dispatch(r);
      code = res.statusCode;
    } catch (err) {
      code = sendError(res, err);
    }
    this.log.record({ ...record, ...(r?.named !== undefined ? { name: r.named } : {}), code, injected: r?.injected === true });
  }

  async #dispatch(r: ResourceRequest): Promise<void> {
    const allowed = r.path.subresource === undefined ? r.type.verbs : ["get", "update", "patch"];
    if (!allowed.includes(r.verb)) throw methodNotAllowed();
    // A POST names no object: the API server has no route for one to a name.
    if (r.verb === "create" && r.path.name !== undefined) throw methodNotAllowed();
    if (isReview(r.type)) return handleReview(this.ctx, r);
    switch (r.verb) {
      case "get":
        if (r.path.subresource === "scale") {
          const stored = this.ctx.store.get(r.type.storageKey, r.path.namespace ?? "", r.path.name!);
          if (!stored) throw this.ctx.writer.notFound(r.type, r.path.name!);
          sendJson(r.res, 200, JSON.stringify(getScale(r.type, await toViewAsync(r.type, stored.object()))));
          return;
        }
        return handleGet(this.ctx, r);
      case "list":
        return handleList(this.ctx, r);
      case "watch":
        return handleWatch(this.ctx, r);
      case "create":
        return handleCreate(this.ctx, r);
      case "update":
        return handleUpdate(this.ctx, r);
      case "patch":
        return handlePatch(this.ctx, r);
      case "delete":
        return handleDelete(this.ctx, r);
      case "deletecollection":
        return handleDeleteCollection(this.ctx, r);
      default:
        throw methodNotAllowed();
    }
  }

  #nonResource(url: URL, req: IncomingMessage, res: ServerResponse): void {
    const p = url.pathname.replace(/\/+$/, "") || "/";
    const reg = this.ctx.registry;
    let body: string | undefined;
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendError(res, methodNotAllowed());
      return;
    }
    if (p === "/version") body = VERSION;
    else if (p === "/api") body = reg.apiVersions(this.serverAddress);
    else if (p === "/apis") body = reg.apiGroupList();
    else if (p === "/healthz" || p === "/readyz" || p === "/livez") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("ok");
      return;
    } else if (p === "/openapi/v2" || p === "/swagger-2.0.0.pb-v1") {
      // kubectl <= 1.28 reads /openapi/v2 as protobuf before apply/create/replace -f.
      if (p === "/swagger-2.0.0.pb-v1" || (req.headers.accept ?? "").includes("protobuf")) {
        const buf = openApiV2Protobuf([...reg.all()]);
        res.writeHead(200, { "Content-Type": OPENAPI_V2_PROTOBUF, "Content-Length": buf.length, "Cache-Control": "no-cache, private" });
        res.end(buf);
        return;
      }
      body = openApiV2Json([...reg.all()]);
    } else if (p === "/openapi/v3") body = JSON.stringify(openApiRoot([...reg.all()]));
    else if (p.startsWith("/openapi/v3/")) {
      const served = openApiGroupVersionJson([...reg.all()], p.slice("/openapi/v3/".length));
      if (served) {
        sendOpenApiGroupVersion(req, res, url, served);
        return;
      }
    } else {
      const parts = p.split("/").filter(Boolean);
      if (parts[0] === "api" && parts.length === 2) body = reg.apiResourceList("", parts[1]!);
      else if (parts[0] === "apis" && parts.length === 2) body = reg.apiGroup(parts[1]!);
      else if (parts[0] === "apis" && parts.length === 3) body = reg.apiResourceList(parts[1]!, parts[2]!);
    }
    if (body === undefined) {
      sendError(res, new StatusError(404, "NotFound", "the server could not find the requested resource", {}));
      return;
    }
    sendJson(res, 200, body);
  }

  /** Adds a fault; throws a TypeError when it could never fire (see `checkFault`). */
  inject(spec: FaultSpec): ActiveFault {
    checkFault(spec);
    const f: ActiveFault = { spec, remaining: spec.times ?? 1, hits: 0 };
    this.faults.push(f);
    return f;
  }

  #takeFault(r: { verb: ApiServerVerb; resource: string; namespace: string | undefined; name: string | undefined }, dryRun: boolean): ActiveFault | undefined {
    for (let i = 0; i < this.faults.length; i++) {
      const f = this.faults[i]!;
      if (!matchesRequest(f.spec, r)) continue;
      if (f.spec.dryRun !== undefined && f.spec.dryRun !== dryRun) continue;
      f.hits++;
      if (--f.remaining <= 0) this.faults.splice(i, 1);
      return f;
    }
    return undefined;
  }
}

/** The Status error an injected fault answers with. */
function faultError(spec: FaultSpec, code: number): StatusError {
  const { reason, message } = faultStatus(code, spec.message);
  return new StatusError(code, reason, message, spec.retryAfterSeconds !== undefined ? { retryAfterSeconds: spec.retryAfterSeconds } : undefined);
}

/** The API server's verb of a request, as kube-apiserver's request-info resolver names it; undefined for other HTTP methods. */
function verbOf(method: string, named: boolean, q: URLSearchParams): ApiServerVerb | undefined {
  switch (method) {
    case "GET": {
      if (!named && queryBool(q, "watch") === true) return "watch";
      return named ? "get" : "list";
    }
    case "POST":
      return "create";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return named ? "delete" : "deletecollection";
    default:
      return undefined;
  }
}

/**
 * Serves a `/openapi/v3/<gv>` document as kube-openapi does: ETag = the document's hash
 * (`If-None-Match` → 304); with a `?hash=` query, a stale hash is redirected (301) to the
 * current one, and the current one is cacheable for a year (`Cache-Control: public, immutable`),
 * which is why the root's hash must change with the document.
 */
function sendOpenApiGroupVersion(req: IncomingMessage, res: ServerResponse, url: URL, served: { json: string; hash: string; gvPath: string }): void {
  const headers: Record<string, string> = { ETag: `"${served.hash}"`, Vary: "Accept" };
  const hash = url.searchParams.get("hash");
  if (hash) {
    if (hash !== served.hash) {
      res.writeHead(301, { ...headers, Location: `/openapi/v3/${served.gvPath}?hash=${served.hash}`, "Content-Length": 0 });
      res.end();
      return;
    }
    headers["Cache-Control"] = "public, immutable";
    headers["Expires"] = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
  }
  if ((req.headers["if-none-match"] ?? "").split(/\s*,\s*/).includes(headers.ETag!)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  sendJson(res, 200, served.json, headers);
}
