/**
 * GET requests: get by name, list (selectors, shard selectors, limit/continue, Tables) and watch.
 */
import type { ApiContext, ResourceRequest } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import { badRequest, selectorBadRequest, StatusError } from "./status.ts";
import { sendJson } from "./http-io.ts";
import { renderView, toView } from "./object-view.ts";
import { parseLabelSelector } from "../util/label-selector.ts";
import { parseFieldSelector } from "../util/field-selector.ts";
import { fieldSelectorFor } from "./selectable-fields.ts";
import { toTable, wantsTable } from "./views/table.ts";
import type { IncludeObject } from "./views/table.ts";
import { serveWatch } from "./watch-handler.ts";
import { awaitResourceVersion, minimumResourceVersion } from "./resource-version-wait.ts";
import { parseLimit } from "./list-params.ts";
import { listCandidates } from "./list-candidates.ts";
import { echoesShardInfo, shardSelectionOf } from "./shard-selector.ts";
import type { ShardSelection } from "./shard-selector.ts";

/**
 * Waits for a `resourceVersion=N` the store has not reached (504 when it is not reached in
 * time); false when the client went away meanwhile.
 */
async function caughtUp(ctx: ApiContext, r: ResourceRequest): Promise<boolean> {
  const min = minimumResourceVersion(r.query);
  return min === undefined || min <= BigInt(ctx.store.resourceVersion) || awaitResourceVersion(ctx, min, r.res);
}

/** `GET .../{name}` */
export async function handleGet(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  if (!(await caughtUp(ctx, r))) return;
  const stored = ctx.store.get(r.type.storageKey, r.path.namespace ?? "", r.path.name!);
  if (!stored) throw ctx.writer.notFound(r.type, r.path.name!);
  if (wantsTable(r.req.headers.accept)) {
    const table = toTable(r.type, [toView(r.type, stored.object())], String(ctx.store.resourceVersion), new Date(), includeObjectOf(r.query));
    sendJson(r.res, 200, JSON.stringify(table));
    return;
  }
  sendJson(r.res, 200, renderView(r.type, stored));
}

/** The Table `includeObject` query parameter (kubectl's --sort-by asks for whole objects). */
export function includeObjectOf(query: URLSearchParams): IncludeObject {
  const v = query.get("includeObject");
  return v === "Object" || v === "None" ? v : "Metadata";
}

/** The predicate of a request without a label or field selector (or with empty ones). */
const SELECT_ALL = (): boolean => true;

/**
 * Builds the selector predicate of a list or watch request: {@link SELECT_ALL} itself when
 * neither selector has a requirement (kube-apiserver's "empty predicate").
 */
export function selectorOf(type: ResourceType, query: URLSearchParams): (o: StoredObject) => boolean {
  const labelText = query.get("labelSelector") ?? "";
  const fieldText = query.get("fieldSelector") ?? "";
  const labels = labelText ? selectorBadRequest(() => parseLabelSelector(labelText)) : undefined;
  const fields = fieldText ? fieldSelectorFor(type, fieldText) : undefined;
  const noLabels = !labels || labels.isEmpty;
  const noFields = !fields || selectorBadRequest(() => parseFieldSelector(fieldText)).isEmpty;
  if (noLabels && noFields) return SELECT_ALL;
  return (o) => (!labels || labels.matches(o.labels)) && (!fields || fields(o.object() as Record<string, unknown>));
}

/**
 * The label/field predicate `match` narrowed to a shard selection, when there is one. Parse
 * the label and field selectors first: kube-apiserver answers their 400 before a shard
 * selector's.
 */
export function withShard(match: (o: StoredObject) => boolean, shard: ShardSelection | undefined): (o: StoredObject) => boolean {
  if (!shard) return match;
  return match === SELECT_ALL ? (o) => shard.matches(o) : (o) => shard.matches(o) && match(o);
}

interface ContinueToken {
  rv: number;
  start: string;
}

/** `GET .../{plural}` without watch. */
export async function handleList(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const q = r.query;
  const labelsAndFields = selectorOf(r.type, q);
  const shard = shardSelectionOf(ctx, q);
  const match = withShard(labelsAndFields, shard);
  const limit = parseLimit(q.get("limit"));
  const token = decodeContinue(q.get("continue"), ctx.store.resourceVersion);
  if (!token && !(await caughtUp(ctx, r))) return;
  if (token && !ctx.store.isResumable(token.rv)) {
    throw new StatusError(410, "Expired",
      "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue value from the response to get the next set of results from a newer resource version.");
  }
  const listRv = token ? token.rv : ctx.store.resourceVersion;
  const all = listCandidates(ctx.store, r.type.storageKey, r.path.namespace, q, token ? startOf(token) : undefined);
  const items: StoredObject[] = [];
  let remaining = 0;
  let next: string | undefined;
  for (const o of all) {
    if (!match(o)) continue;
    if (limit > 0 && items.length >= limit) {
      remaining++;
      continue;
    }
    items.push(o);
  }
  if (remaining > 0) next = encodeContinue({ rv: listRv, start: keyOf(items[items.length - 1]!) });
  if (wantsTable(r.req.headers.accept)) {
    const table = toTable(r.type, items.map((o) => toView(r.type, o.object())), String(listRv), new Date(), includeObjectOf(q));
    if (next) (table.metadata as Record<string, unknown>).continue = next;
    sendJson(r.res, 200, JSON.stringify(table));
    return;
  }
  const metadata: Record<string, unknown> = { resourceVersion: String(listRv) };
  if (next) {
    metadata.continue = next;
    // As kube-apiserver: the count is given only without selectors (its count comes from
    // storage and would include objects a selector does not match, so it stays unset).
    if (match === SELECT_ALL) metadata.remainingItemCount = remaining;
  }
  // KEP-5866: the applied selector, so a client can tell a filtered list from an ignored
  // parameter (kube-apiserver v1.36.2 echoes it for built-in kinds only: see ShardInfoEcho).
  if (shard && echoesShardInfo(ctx, r.type)) metadata.shardInfo = { selector: shard.selector };
  const head = JSON.stringify({ kind: `${r.type.kind}List`, apiVersion: apiVersionOf(r.type), metadata });
  const body = `${head.slice(0, -1)},"items":[${items.map((o) => renderView(r.type, o)).join(",")}]}`;
  sendJson(r.res, 200, body);
}

/** `GET ...?watch=true` */
export function handleWatch(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const labelsAndFields = selectorOf(r.type, r.query);
  return serveWatch(ctx, r, withShard(labelsAndFields, shardSelectionOf(ctx, r.query)));
}

/** The key a continue token names: `namespace/name` (`/name` for cluster-scoped objects). */
function keyOf(o: StoredObject): string {
  return `${o.namespace}/${o.name}`;
}

/**
 * Where a continue token's page starts: after this namespace and name, in the store's order
 * (namespace, then name). Names and namespaces hold no `/`, so the first one splits them.
 */
function startOf(token: ContinueToken): { namespace: string; name: string } {
  const slash = token.start.indexOf("/");
  return slash < 0 ? { namespace: "", name: token.start } : { namespace: token.start.slice(0, slash), name: token.start.slice(slash + 1) };
}

function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify(t)).toString("base64url");
}

/**
 * A continue token this server issued: its resourceVersion a positive integer no newer than
 * the store's (`current`), its start key a string; anything else is 400, as kube-apiserver
 * answers tokens it cannot decode.
 */
function decodeContinue(text: string | null, current: number): ContinueToken | undefined {
  if (!text) return undefined;
  try {
    const t = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as ContinueToken;
    if (Number.isSafeInteger(t.rv) && t.rv > 0 && t.rv <= current && typeof t.start === "string") return t;
  } catch {
    // fall through
  }
  throw badRequest(`continue key is not valid: ${text}`);
}

