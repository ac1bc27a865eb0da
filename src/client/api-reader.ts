/** ApiReader: the ObjectReader that reads straight from the API server (no cache). */
import { ignoreNotFound } from "../errors.ts";
import type { Kind, KubeObject, ListOptions, ObjectReader, ObjectRef } from "./types.ts";
import { argumentError } from "../util/check-args.ts";

/**
 * What an {@link ApiReader} reads through: a `ResourceClient` (declared here by shape, so this
 * file does not import the client that constructs it).
 */
export interface ReadingClient {
  get<T extends KubeObject = KubeObject>(ref: ObjectRef<T>): Promise<T>;
  listAll<T extends KubeObject = KubeObject>(kind: Kind<T>, options?: ListOptions): Promise<{ items: T[] }>;
}

/**
 * Reads objects through a `ResourceClient`: `get` answers undefined for a missing object,
 * `list` follows every page. Each call is one or more API requests; an informer cache is the
 * cheaper {@link ObjectReader} in steady state.
 *
 * Errors: anything but 404 is rethrown (typed ApiError); an unknown kind throws
 * OperatorRuntimeError from discovery.
 *
 * @example
 * ```ts
 * import { ConfigMap, ResourceClient } from "operator-runtime";
 * import { ApiReader } from "operator-runtime/client";
 *
 * const reader = new ApiReader(new ResourceClient({ kubeConfig }));
 * const cm = await reader.get({ ...ConfigMap, namespace: "default", name: "a" }); // ConfigMap | undefined
 * const all = await reader.list(ConfigMap, { namespace: "default", labelSelector: "app=x" });
 * ```
 */
export class ApiReader implements ObjectReader {
  readonly #client: ReadingClient;

  constructor(client: ReadingClient) {
    if (typeof client?.listAll !== "function") throw argumentError("new ApiReader(client)", "client", "a ResourceClient", client);
    this.#client = client;
  }

  /** The object, or undefined when the server answers 404. */
  async get<T extends KubeObject = KubeObject>(ref: ObjectRef<T>): Promise<T | undefined> {
    try {
      return await this.#client.get<T>(ref);
    } catch (err) {
      return ignoreNotFound(err);
    }
  }

  /** All objects of a kind matching the options, every page. */
  async list<T extends KubeObject = KubeObject>(kind: Kind<T>, options: ListOptions = {}): Promise<T[]> {
    return (await this.#client.listAll<T>(kind, options)).items;
  }
}
