/**
 * GET requests: get by name, list (selectors, shard selectors, limit/continue, Tables) and watch.
 */
import type { ApiContext, ResourceRequest } from "./api-context.ts";
import type { StoredObject } from "./object-store.ts";
import type { ResourceType } from "./resource-type.ts";
import { apiVersionOf } from "./resource-type.ts";
import { badRequest, selectorBadRequest, StatusError } from "./status.ts";
import { decodeContinue, encodeContinue } from "./continue-token.ts";
import type { ContinueToken } from "./continue-token.ts";
import { parseTimeoutSeconds } from "./watch-timeout.ts";
import { sendJson } from "./http-io.ts";
import { convertsByWebhook, renderView, renderViewAsync, toView, toViewAsync, toViewsAsync } from "./object-view.ts";
import { parseLabelSelector } from "../util/label-selector.ts";
import { parseFieldSelector } from "../util/field-selector.ts";
import { fieldSelectorFor } from "./selectable-fields.ts";
import { toTable, wantsTable } from "./views/table.ts";
import type { IncludeObject } from "./views/table.ts";
import { serveWatch } from "./watch-handler.ts";
import { awaitResourceVersion, minimumResourceVersion } from "./resource-version-wait.ts";
import { parseLimit, validateListOptions } from "./list-params.ts";
import { listCandidates } from "./list-candidates.ts";
import { echoesShardInfo, shardSelectionOf } from "./shard-selector.ts";
import type { ShardSelection } from "./shard-selector.ts";

/**
 * Waits for a `resourceVersion=N` the store has not reached (504 when it is not reached in
 * time); false when the client went away meanwhile.
 */
async function caughtUp(ctx: ApiContext, r: ResourceRequest, token?: ContinueToken): Promise<boolean> {
  const min = token ? (token.rv > 0 ? BigInt(token.rv) : undefined) : minimumResourceVersion(r.query);
  return min === undefined || min <= BigInt(ctx.store.resourceVersion) || awaitResourceVersion(ctx, min, r.res);
}

/** `GET .../{name}` */
export async function handleGet(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  if (!(await caughtUp(ctx, r))) return;
  const stored = ctx.store.get(r.type.storageKey, r.path.namespace ?? "", r.path.name!);
  if (!stored) throw ctx.writer.notFound(r.type, r.path.name!);
  // The store's version now: a conversion webhook call may let later writes in meanwhile.
  const rv = String(ctx.store.resourceVersion);
  const webhook = convertsByWebhook(r.type);
  if (wantsTable(r.req.headers.accept)) {
    const view = webhook ? await toViewAsync(r.type, stored.object()) : toView(r.type, stored.object());
    const table = toTable(r.type, [view], rv, new Date(), includeObjectOf(r.query));
    sendJson(r.res, 200, JSON.stringify(table));
    return;
  }
  sendJson(r.res, 200, webhook ? await renderViewAsync(r.type, stored) : renderView(r.type, stored));
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

/** `GET .../{plural}` without watch. */
export async function handleList(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const q = r.query;
  const labelsAndFields = selectorOf(r.type, q);
  const shard = shardSelectionOf(ctx, q);
  const match = withShard(labelsAndFields, shard);
  const limit = parseLimit(q.get("limit"));
  parseTimeoutSeconds(q);
  validateListOptions(q, false);
  const token = continueOf(q);
  if (!(await caughtUp(ctx, r, token))) return;
  if (token && token.rv > 0 && !ctx.store.isResumable(token.rv)) {
    throw new StatusError(410, "Expired",
      "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue value from the response to get the next set of results from a newer resource version.");
  }
  // A token's negative resourceVersion asks for the latest, as kube-apiserver reads it.
  const listRv = token && token.rv > 0 ? token.rv : ctx.store.resourceVersion;
  const all = listCandidates(ctx.store, r.type.storageKey, r.path.namespace, q, token?.start);
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
  if (remaining > 0) next = encodeContinue(listRv, keyOf(items[items.length - 1]!, r.path.namespace !== undefined));
  // A conversion webhook converts every item not at the listed version, in one review.
  const converted = convertsByWebhook(r.type) ? await toViewsAsync(r.type, items.map((o) => o.object())) : undefined;
  if (wantsTable(r.req.headers.accept)) {
    const views = converted ?? items.map((o) => toView(r.type, o.object()));
    const table = toTable(r.type, views, String(listRv), new Date(), includeObjectOf(q));
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
  const rendered = converted ? converted.map((o) => JSON.stringify(o)) : items.map((o) => renderView(r.type, o));
  const body = `${head.slice(0, -1)},"items":[${rendered.join(",")}]}`;
  sendJson(r.res, 200, body);
}

/** `GET ...?watch=true` */
export function handleWatch(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const labelsAndFields = selectorOf(r.type, r.query);
  return serveWatch(ctx, r, withShard(labelsAndFields, shardSelectionOf(ctx, r.query)));
}

/**
 * The key a continue token names, relative to the listed prefix as kube-apiserver's are: the
 * name when one namespace (or a cluster-scoped resource) is listed, else `namespace/name`.
 */
function keyOf(o: StoredObject, oneNamespace: boolean): string {
  return oneNamespace || o.namespace === "" ? o.name : `${o.namespace}/${o.name}`;
}

/**
 * The `continue` token of a list, when given, as kube-apiserver's storage checks it: a token
 * it cannot decode is 400, and so is a `resourceVersion` other than "" or "0" beside it.
 */
function continueOf(q: URLSearchParams): ContinueToken | undefined {
  const text = q.get("continue");
  if (!text) return undefined;
  const token = decodeContinue(text);
  const rv = q.get("resourceVersion") ?? "";
  if (rv !== "" && rv !== "0") throw badRequest("specifying resource version is not allowed when using continue");
  return token;
}
