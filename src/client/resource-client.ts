/** ResourceClient: typed CRUD, patches and server-side apply on plain JSON objects, every request counted. */
import { OperatorRuntimeError } from "../errors.ts";
import { ApiReader } from "./api-reader.ts";
import { Discovery } from "./discovery.ts";
import type { ResourceInfo } from "./discovery.ts";
import { RequestCounter } from "./request-counter.ts";
import type { RequestVerb } from "./request-counter.ts";
import { Transport } from "./transport.ts";
import type { TransportRequest } from "./transport.ts";
import { currentWriteGate, passWriteGate } from "./write-gate.ts";
import type { GatedWrite, GatedWriteEnd, WriteGate } from "./write-gate.ts";
import type { DeleteOptions, ListCallOptions, ListPage, PatchType, RequestOptions, ResourceClientOptions, ShardInfo, WriteOptions } from "./client-options.ts";
import type { Kind, KindRef, KubeObject, ObjectReader, ObjectRef } from "./types.ts";
import type { ModelObject, OnlyModel } from "../kinds/model-object.ts";
import type { ObjectInput } from "../kinds/kind.ts";
import type { Plain } from "../kinds/plain.ts";
import { argumentError, checkKindRef, checkKubeObject, checkObject } from "../util/check-args.ts";

/** Argument checks of the object-taking methods (see util/check-args). */
function checkWrite(method: string, obj: unknown, opts: unknown): void {
  checkKubeObject(`ResourceClient.${method}(obj, opts)`, "obj", obj);
  checkObject(`ResourceClient.${method}(obj, opts)`, "opts", opts, "an options object");
}
function checkObjectRef(method: string, ref: unknown, opts: unknown): void {
  const where = `ResourceClient.${method}(ref, …)`;
  const hint = `Pass { ...Kind, name, namespace }, e.g. { ...ConfigMap, name: "web", namespace: "default" }`;
  checkKindRef(where, "ref", ref, hint);
  const name = (ref as { name?: unknown }).name;
  if (typeof name !== "string" || name === "") throw argumentError(where, "ref.name", "a non-empty string", name, hint);
  checkObject(where, "opts", opts, "an options object");
}

const PATCH_TYPES: Record<PatchType, string> = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
};

/** Server-owned metadata a server-side apply body must not carry. */
const NOT_APPLIED = ["managedFields", "resourceVersion", "uid", "creationTimestamp", "generation"] as const;

/**
 * An object shared by a client and every client {@link ResourceClient.withSignal} derives from it
 * (one cluster, one discovery cache): for SDK-internal memories keyed per cluster. Not exported
 * from the package.
 */
export let clusterIdentity: (client: ResourceClient) => object;

/**
 * Reads and writes Kubernetes objects as plain JSON (no client-node model classes, so no field
 * is lost), resolving kinds through cached discovery.
 *
 * Types: a kind handle types reads — `list(Deployment)` gives Deployments,
 * `get({ ...Greeting, name, namespace })` a Greeting. Writes check a literal against the type
 * argument (`apply<Deployment>({ … })`: a misspelt field is a compile error) and also take
 * client-node model objects (`V1Deployment`, …), answering them as plain JSON.
 *
 * Errors: every non-2xx answer throws the {@link ApiError} subclass for its code (NotFoundError,
 * ConflictError, AlreadyExistsError, InvalidError with causes, GoneError, TooManyRequestsError
 * with `retryAfterSeconds`, ServerError) carrying the `Status`. Misuse (no namespace for a
 * namespaced kind, no name, unknown kind) throws {@link OperatorRuntimeError} before the request.
 * Nothing is retried here: retries belong to the caller (the controller's backoff, which
 * honours a 429's Retry-After).
 *
 * Cancellation: every request has a timeout (`requestTimeoutMs`, default 30 s) and every call
 * takes `{ signal, timeoutMs }` ({@link RequestOptions}); a call whose signal is aborted rejects
 * with the signal's reason, and sends nothing if it was aborted before. {@link
 * ResourceClient.withSignal} binds a signal to every call (hand it to a Builder). Writes made
 * inside a controller's reconcile are refused once that reconcile is aborted or its process no
 * longer leads, even without a signal passed (see `runWithWriteGate`).
 *
 * Every request, discovery included, is recorded in {@link ResourceClient.requests}.
 *
 * @example
 * ```ts
 * import { ConfigMap, Deployment, ResourceClient } from "operator-runtime";
 * const client = new ResourceClient({ kubeConfig, fieldManager: "greeting-operator" });
 * const cm = await client.apply<ConfigMap>({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "default" }, data: { x: "1" } });
 * const web = await client.get({ ...Deployment, name: "web", namespace: "default" }); // a Deployment
 * await client.delete({ ...ConfigMap, name: "a", namespace: "default" });
 * console.log(client.requests.summary());
 * ```
 */
export class ResourceClient {
  /** The field manager used by writes unless overridden per call. */
  readonly fieldManager: string;
  /** Every request this client made. */
  readonly requests: RequestCounter;
  readonly #options: ResourceClientOptions;
  #transport: Transport;
  #discovery: Discovery;
  /** Bound by {@link ResourceClient.withSignal}: carried by every call. */
  #signal: AbortSignal | undefined;

  static {
    // A stand-in that is not a ResourceClient (a test double, a wrapper) is its own identity.
    clusterIdentity = (client) => (#discovery in client ? client.#discovery : client);
  }

  constructor(options: ResourceClientOptions) {
    checkObject("new ResourceClient(options)", "options", options, "an options object ({ kubeConfig, fieldManager?, … })");
    checkObject("new ResourceClient(options)", "options.kubeConfig", options.kubeConfig, "a KubeConfig", "Load one with new KubeConfig().loadFromDefault(), or use cluster.kubeConfig in tests");
    this.#options = options;
    this.fieldManager = options.fieldManager ?? "operator-runtime";
    this.requests = options.requests ?? new RequestCounter();
    this.#transport = new Transport(options.kubeConfig, options.userAgent ?? "operator-runtime", this.requests,
      options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {});
    this.#discovery = new Discovery(this.#transport);
  }

  /**
   * This client with `signal` bound to every call (besides any signal bound already and the
   * one a call passes): same connection, discovery cache, field manager and request counter.
   * Once the signal aborts, every call rejects with its reason without sending anything — so a
   * Builder given `client.withSignal(ctx.signal)` stops writing when its reconcile is aborted.
   *
   * @example
   * ```ts
   * import { Builder } from "operator-runtime";
   *
   * mgr.controller("greeting").for(Greeting).reconcile(async (req, { signal }) => {
   *   const greeting = await mgr.client.get({ ...Greeting, ...req }, { signal });
   *   await new Builder({ client: mgr.client.withSignal(signal), owner: greeting })
   *     .configMap({ metadata: { name: `${req.name}-message` }, data: { message: `Hello, ${greeting.spec.name ?? "world"}` } })
   *     .reconcile();
   * });
   * ```
   */
  withSignal(signal: AbortSignal): ResourceClient {
    const bound = new ResourceClient({ ...this.#options, requests: this.requests });
    bound.#transport = this.#transport;
    bound.#discovery = this.#discovery;
    bound.#signal = this.#signal ? AbortSignal.any([this.#signal, signal]) : signal;
    return bound;
  }

  /** Where a kind lives: group, version, plural, namespaced (cached discovery). */
  resourceFor(kind: KindRef): Promise<ResourceInfo> {
    // A non-object is a TypeError here; an object missing apiVersion or kind (a client-node model
    // built with `new V1ConfigMap()`) gets discovery's error, which says how to fix that.
    checkObject("ResourceClient.resourceFor(kind)", "kind", kind, 'a kind ({ apiVersion, kind }, e.g. { apiVersion: "apps/v1", kind: "Deployment" })');
    return this.#discovery.resourceFor(kind);
  }

  /** An {@link ObjectReader} reading straight from the API server through this client. */
  reader(): ObjectReader {
    return new ApiReader(this);
  }

  /** Reads one object; throws NotFoundError when it does not exist. */
  async get<T extends KubeObject = KubeObject>(ref: ObjectRef<T>, opts: RequestOptions = {}): Promise<T> {
    checkObjectRef("get", ref, opts);
    return (await this.#object("get", "GET", ref, ref.namespace, ref.name, { call: opts })) as T;
  }

  /** Reads one object through its `/status` subresource. */
  async getStatus<T extends KubeObject = KubeObject>(ref: ObjectRef<T>, opts: RequestOptions = {}): Promise<T> {
    checkObjectRef("getStatus", ref, opts);
    return (await this.#object("get", "GET", ref, ref.namespace, ref.name, { subresource: "status", call: opts })) as T;
  }

  /**
   * One page of a list; across all namespaces when `options.namespace` is unset (ignored for
   * cluster-scoped kinds). Items carry apiVersion and kind, which the server leaves out of lists.
   * An expired `continue` token throws GoneError: list again from the start.
   *
   * With `shardSelector` (KEP-5866), the page's `shardInfo` tells whether the server applied it;
   * without it the items are unfiltered (this method never filters client-side).
   */
  async list<T extends KubeObject = KubeObject>(kind: Kind<T>, options: ListCallOptions & { continue?: string } = {}): Promise<ListPage<T>> {
    checkKindRef("ResourceClient.list(kind, options)", "kind", kind);
    checkObject("ResourceClient.list(kind, options)", "options", options, "an options object ({ namespace?, labelSelector?, … })");
    this.#cancellation(options).signal?.throwIfAborted();
    const info = await this.resourceFor(kind);
    const namespace = info.namespaced ? options.namespace : undefined;
    const query = new URLSearchParams();
    if (options.labelSelector) query.set("labelSelector", options.labelSelector);
    if (options.fieldSelector) query.set("fieldSelector", options.fieldSelector);
    if (options.limit !== undefined) query.set("limit", String(options.limit));
    if (options.continue) query.set("continue", options.continue);
    if (options.shardSelector) query.set("shardSelector", options.shardSelector);
    const { body } = await this.#transport.send({
      method: "GET", path: pathOf(info, namespace), query, verb: "list", resource: info.plural, ...(namespace ? { namespace } : {}),
      ...this.#cancellation(options),
    });
    const list = (body ?? {}) as { items?: KubeObject[] | null; metadata?: { resourceVersion?: string; continue?: string; shardInfo?: Partial<ShardInfo> } };
    const items = (list.items ?? []).map((item) => ({ apiVersion: kind.apiVersion, kind: kind.kind, ...item }) as T);
    const page: ListPage<T> = { items, resourceVersion: list.metadata?.resourceVersion ?? "" };
    if (list.metadata?.continue) page.continue = list.metadata.continue;
    const shardInfo = list.metadata?.shardInfo;
    if (shardInfo && typeof shardInfo.selector === "string") page.shardInfo = { selector: shardInfo.selector };
    return page;
  }

  /**
   * Every page of a list, following `continue`; `resourceVersion` is the last page's.
   * `shardInfo` is set only when every page carried the same one: pages may come from different
   * API servers, and one without KEP-5866 sends its page unfiltered.
   */
  async listAll<T extends KubeObject = KubeObject>(kind: Kind<T>, options: ListCallOptions = {}): Promise<{ items: T[]; resourceVersion: string; shardInfo?: ShardInfo }> {
    checkKindRef("ResourceClient.listAll(kind, options)", "kind", kind);
    checkObject("ResourceClient.listAll(kind, options)", "options", options, "an options object ({ namespace?, labelSelector?, … })");
    const items: T[] = [];
    let page = await this.list<T>(kind, options);
    let shardInfo = page.shardInfo;
    items.push(...page.items);
    while (page.continue) {
      page = await this.list<T>(kind, { ...options, continue: page.continue });
      if (page.shardInfo?.selector !== shardInfo?.selector) shardInfo = undefined;
      items.push(...page.items);
    }
    return { items, resourceVersion: page.resourceVersion, ...(shardInfo ? { shardInfo } : {}) };
  }

  /** Creates an object in `obj.metadata.namespace` (POST). */
  create<T extends KubeObject = KubeObject>(obj: ObjectInput<T>, opts?: WriteOptions): Promise<T>;
  /** Creates a client-node model object; answers it as plain JSON. */
  create<M extends ModelObject>(obj: OnlyModel<M>, opts?: WriteOptions): Promise<Plain<M>>;
  async create(obj: ModelObject, opts: WriteOptions = {}): Promise<KubeObject> {
    checkWrite("create", obj, opts);
    // POST goes to the collection; the name is still recorded, so counts and errors name the object.
    const name = obj.metadata?.name || undefined;
    return (await this.#object("create", "POST", obj, obj.metadata?.namespace, undefined, {
      body: obj, query: this.#writeQuery(opts), call: opts, ...(name ? { recordName: name } : {}),
    }))!;
  }

  /** Replaces an object (PUT); the `metadata.resourceVersion` it carries makes it conditional. */
  replace<T extends KubeObject = KubeObject>(obj: ObjectInput<T>, opts?: WriteOptions): Promise<T>;
  /** Replaces a client-node model object; answers it as plain JSON. */
  replace<M extends ModelObject>(obj: OnlyModel<M>, opts?: WriteOptions): Promise<Plain<M>>;
  async replace(obj: ModelObject, opts: WriteOptions = {}): Promise<KubeObject> {
    checkWrite("replace", obj, opts);
    return (await this.#object("update", "PUT", obj, obj.metadata?.namespace, requireName(obj, "replace"), {
      body: obj, query: this.#writeQuery(opts), call: opts,
    }))!;
  }

  /** Replaces an object's status through `/status` (PUT). */
  replaceStatus<T extends KubeObject = KubeObject>(obj: ObjectInput<T>, opts?: WriteOptions): Promise<T>;
  /** Replaces the status of a client-node model object; answers it as plain JSON. */
  replaceStatus<M extends ModelObject>(obj: OnlyModel<M>, opts?: WriteOptions): Promise<Plain<M>>;
  async replaceStatus(obj: ModelObject, opts: WriteOptions = {}): Promise<KubeObject> {
    checkWrite("replaceStatus", obj, opts);
    return (await this.#object("update", "PUT", obj, obj.metadata?.namespace, requireName(obj, "replaceStatus"), {
      body: obj, query: this.#writeQuery(opts), subresource: "status", call: opts,
    }))!;
  }

  /** Patches an object (or its `status`/`scale` subresource) with a JSON, merge or strategic merge patch. */
  async patch<T extends KubeObject = KubeObject>(
    ref: ObjectRef<T>, patch: unknown, type: PatchType, opts: WriteOptions & { subresource?: "status" | "scale" } = {},
  ): Promise<T> {
    checkObjectRef("patch", ref, opts);
    return (await this.#object("patch", "PATCH", ref, ref.namespace, ref.name, {
      body: patch, contentType: PATCH_TYPES[type], query: this.#writeQuery(opts), call: opts, ...(opts.subresource ? { subresource: opts.subresource } : {}),
    })) as T;
  }

  /** Patches an object's `/status`. */
  async patchStatus<T extends KubeObject = KubeObject>(ref: ObjectRef<T>, patch: unknown, type: PatchType, opts: WriteOptions = {}): Promise<T> {
    checkObjectRef("patchStatus", ref, opts);
    return this.patch<T>(ref, patch, type, { ...opts, subresource: "status" });
  }

  /**
   * Server-side apply: the object is the full intent of this field manager. Creates the object
   * when missing. Another manager owning a field with a different value → ConflictError unless
   * `force`. Server-owned metadata (managedFields, resourceVersion, uid, creationTimestamp,
   * generation) is stripped from the body; the caller's object is not modified.
   */
  apply<T extends KubeObject = KubeObject>(obj: ObjectInput<T>, opts?: WriteOptions & { force?: boolean; subresource?: "status" }): Promise<T>;
  /** Server-side apply of a client-node model object; answers it as plain JSON. */
  apply<M extends ModelObject>(obj: OnlyModel<M>, opts?: WriteOptions & { force?: boolean; subresource?: "status" }): Promise<Plain<M>>;
  async apply(obj: ModelObject, opts: WriteOptions & { force?: boolean; subresource?: "status" } = {}): Promise<KubeObject> {
    checkWrite("apply", obj, opts);
    const query = this.#writeQuery(opts);
    if (opts.force) query.set("force", "true");
    return (await this.#object("apply", "PATCH", obj, obj.metadata?.namespace, requireName(obj, "apply"), {
      body: appliable(obj), contentType: "application/apply-patch+yaml", query, call: opts, ...(opts.subresource ? { subresource: opts.subresource } : {}),
    }))!;
  }

  /** Server-side apply of the status through `/status`. */
  applyStatus<T extends KubeObject = KubeObject>(obj: ObjectInput<T>, opts?: WriteOptions & { force?: boolean }): Promise<T>;
  /** Server-side apply of a client-node model object's status; answers it as plain JSON. */
  applyStatus<M extends ModelObject>(obj: OnlyModel<M>, opts?: WriteOptions & { force?: boolean }): Promise<Plain<M>>;
  async applyStatus(obj: ModelObject, opts: WriteOptions & { force?: boolean } = {}): Promise<KubeObject> {
    checkWrite("applyStatus", obj, opts);
    return this.apply(obj as KubeObject, { ...opts, subresource: "status" });
  }

  /**
   * Deletes an object, sending DeleteOptions as the body. Returns the object when the server
   * answers with it (it still exists, held by finalizers, or the kind answers so), undefined
   * when the server answers a `Status` Success. Preconditions that do not match → ConflictError.
   */
  async delete<T extends KubeObject = KubeObject>(ref: ObjectRef<T>, opts: DeleteOptions = {}): Promise<T | undefined> {
    checkObjectRef("delete", ref, opts);
    const body: Record<string, unknown> = { kind: "DeleteOptions", apiVersion: "v1" };
    if (opts.propagationPolicy) body.propagationPolicy = opts.propagationPolicy;
    if (opts.preconditions) body.preconditions = opts.preconditions;
    if (opts.dryRun) body.dryRun = ["All"];
    if (opts.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = opts.gracePeriodSeconds;
    const answer = await this.#object("delete", "DELETE", ref, ref.namespace, ref.name, { body, call: opts });
    return answer?.kind === "Status" ? undefined : (answer as T);
  }

  /** The call's signal joined with the bound one, and its timeout, as a TransportRequest takes them. */
  #cancellation(call: RequestOptions, gate?: AbortSignal): Pick<TransportRequest, "signal" | "timeoutMs"> {
    const signals = [call.signal, this.#signal, gate].filter((x): x is AbortSignal => x !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    return { ...(signal ? { signal } : {}), ...(call.timeoutMs !== undefined ? { timeoutMs: call.timeoutMs } : {}) };
  }

  #writeQuery(opts: WriteOptions): URLSearchParams {
    const query = new URLSearchParams({ fieldManager: opts.fieldManager ?? this.fieldManager });
    if (opts.dryRun) query.set("dryRun", "All");
    return query;
  }

  /** Resolves the kind, checks the namespace, sends one object request. */
  async #object(
    verb: RequestVerb, method: TransportRequest["method"], kind: { apiVersion?: string; kind?: string },
    namespace: string | undefined, name: string | undefined,
    extra: { body?: unknown; contentType?: string; query?: URLSearchParams; subresource?: string; recordName?: string; call?: RequestOptions } = {},
  ): Promise<KubeObject | undefined> {
    const gate = verb === "get" ? undefined : passWriteGate(); // a write from an aborted reconcile sends nothing
    const writeGate = verb === "get" ? undefined : currentWriteGate();
    const cancellation = this.#cancellation(extra.call ?? {}, gate);
    cancellation.signal?.throwIfAborted(); // before discovery: an aborted call sends nothing
    const info = await this.resourceFor({ apiVersion: kind.apiVersion ?? "", kind: kind.kind ?? "" });
    if (info.namespaced && !namespace) {
      throw new OperatorRuntimeError(
        `ResourceClient.${verb === "update" ? "replace" : verb}: ${info.kind} "${name ?? extra.recordName ?? "(unnamed)"}" (${kind.apiVersion}) is namespaced but no namespace was given. ` +
          "Fix: set metadata.namespace on the object (or namespace on the ref).",
      );
    }
    const ns = info.namespaced ? namespace : undefined;
    const recorded = name ?? extra.recordName;
    let query = extra.query;
    let body = extra.body;
    if (writeGate?.dryRun) {
      // The gate plans: whatever the caller asked, the server stores nothing. A DELETE's
      // DeleteOptions body, when it has one, wins over its query (as kube-apiserver reads it).
      if (query?.get("dryRun") !== "All") {
        query = new URLSearchParams(query);
        query.set("dryRun", "All");
      }
      if (verb === "delete" && typeof body === "object" && body !== null) body = { ...body, dryRun: ["All"] };
    }
    const req: TransportRequest = {
      method, path: pathOf(info, ns, name, extra.subresource), verb,
      resource: extra.subresource ? `${info.plural}/${extra.subresource}` : info.plural,
      ...(ns !== undefined ? { namespace: ns } : {}),
      ...(recorded !== undefined ? { name: recorded } : {}),
      ...(query ? { query } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(extra.contentType ? { contentType: extra.contentType } : {}),
      ...cancellation,
    };
    const ended = writeGate?.observe ? observeWrite(writeGate.observe, {
      verb, apiVersion: kind.apiVersion ?? "", kind: kind.kind ?? "", dryRun: sentAsDryRun(verb, query, body),
      ...(ns !== undefined ? { namespace: ns } : {}), ...(recorded !== undefined ? { name: recorded } : {}),
      ...(extra.subresource ? { subresource: extra.subresource } : {}),
    }) : undefined;
    if (!ended) return (await this.#transport.send(req)).body as KubeObject | undefined;
    try {
      const answer = (await this.#transport.send(req)).body as KubeObject | undefined;
      ended(answer?.kind === "Status" ? {} : { ...(answer ? { answer } : {}) });
      return answer;
    } catch (error) {
      ended({ error });
      throw error;
    }
  }
}

/** Whether a write went out as a dry run: a DELETE's body decides when it has one, else the query. */
function sentAsDryRun(verb: RequestVerb, query: URLSearchParams | undefined, body: unknown): boolean {
  if (verb === "delete" && typeof body === "object" && body !== null) {
    const dryRun = (body as { dryRun?: unknown }).dryRun;
    return Array.isArray(dryRun) && dryRun.includes("All");
  }
  return query?.get("dryRun") === "All";
}

/** Tells a gate's observer of a write; what the observer throws is ignored. */
function observeWrite(observe: NonNullable<WriteGate["observe"]>, write: GatedWrite): (end: GatedWriteEnd) => void {
  let end: ((end: GatedWriteEnd) => void) | void;
  try {
    end = observe(write);
  } catch {
    return () => undefined;
  }
  return (outcome) => {
    try {
      end?.(outcome);
    } catch {
      // An observer's failure never fails the write.
    }
  };
}

/** `/api/v1/namespaces/{ns}/{plural}/{name}/{sub}` or `/apis/{g}/{v}/…`, names URL-encoded. */
function pathOf(info: ResourceInfo, namespace?: string, name?: string, subresource?: string): string {
  let path = info.group === "" ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  if (namespace !== undefined) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${info.plural}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) path += `/${subresource}`;
  return path;
}

function requireName(obj: ModelObject, op: string): string {
  const name = obj.metadata?.name;
  if (!name) {
    throw new OperatorRuntimeError(`ResourceClient.${op}: ${obj.kind ?? "object"} has no metadata.name. Fix: set metadata.name (generateName works only with create).`);
  }
  return name;
}

/** A copy of the object without the metadata server-side apply refuses or should not own. */
function appliable(obj: ModelObject): ModelObject {
  const metadata = { ...obj.metadata };
  for (const key of NOT_APPLIED) delete metadata[key];
  return { ...obj, metadata };
}
