/**
 * What request handlers share: the registry, the store, the watch hub and the writer, plus
 * the per-request facts parsed from the URL.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "./registry.ts";
import type { ObjectStore } from "./object-store.ts";
import type { WatchHub } from "./watch-hub.ts";
import type { Writer } from "./write-path.ts";
import type { KubeObject, ResourceType } from "./resource-type.ts";
import type { ResourcePath } from "./request-info.ts";
import type { ApiServerVerb } from "./faults.ts";
import type { AccessControl } from "./auth/access-control.ts";
import type { UserInfo } from "./auth/user-info.ts";
import type { AdmissionChain } from "./admission/chain.ts";

/**
 * Which kinds' filtered lists carry `metadata.shardInfo`: `"all"`, or `"built-in"` only (custom
 * resources are filtered without it, as by kube-apiserver v1.36.2).
 */
export type ShardInfoEcho = "all" | "built-in";

/** Server-wide state and settings. */
export interface ApiContext {
  registry: Registry;
  store: ObjectStore;
  hub: WatchHub;
  writer: Writer;
  /** Interval of watch bookmarks, when asked for. */
  bookmarkIntervalMs: number;
  /** How long a read or watch waits for a resourceVersion ahead of the store before its 504. */
  resourceVersionWaitMs: number;
  /**
   * Whether lists, watches and collection deletes honour `?shardSelector=` (KEP-5866); when
   * false it is ignored, as by an API server without the feature.
   */
  shardedListWatch: boolean;
  /** Which kinds' filtered lists echo the selector in `metadata.shardInfo` (see `ShardInfoEcho`). */
  shardInfoEcho: ShardInfoEcho;
  /** Authorization mode's authentication, RBAC and admission; undefined when every request is allowed. */
  access?: AccessControl;
  /** The admission webhook chain (Mutating/ValidatingWebhookConfigurations); writes consult it. */
  admission?: AdmissionChain;
}

/** One resource request. */
export interface ResourceRequest {
  req: IncomingMessage;
  res: ServerResponse;
  type: ResourceType;
  path: ResourcePath;
  query: URLSearchParams;
  /** get, list, watch, create, update, patch, delete, deletecollection. */
  verb: ApiServerVerb;
  /** Who sent it (authorization mode only). */
  user?: UserInfo;
  /** Authorization mode's admission checks for a write by a non-superuser (see `WriteOptions.admit`). */
  admit?: (next: KubeObject, old: KubeObject | undefined) => void;
  /** The name a create's body gives its object: the request log records it (as kube-apiserver's audit `objectRef.name`). */
  named?: string;
  /**
   * For a create: applies the injected faults that name an object, once the body's name is known
   * (a POST's URL has none). Rejects with the fault's Status when one fires.
   */
  faultByName?: (name: string) => Promise<void>;
  /** An injected fault answered this request. */
  injected?: boolean;
}
