/**
 * What an authorization decision is about — kube-apiserver's `authorizer.Attributes` — built from
 * a request the way its RequestInfo resolver does, and the 403 it answers when the decision is no.
 */
import type { ResourcePath } from "../request-info.ts";
import type { ApiServerVerb } from "../faults.ts";
import type { UserInfo } from "./user-info.ts";
import { StatusError, qualifiedResource } from "../status.ts";
import { parseFieldSelector } from "../../util/field-selector.ts";
import { pathSegmentNameErrors } from "../names.ts";

/** A request to authorize: a resource request (`resourceRequest: true`) or a non-resource path. */
export interface Attributes {
  readonly user: UserInfo;
  /** An API verb (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`, `bind`…), or a lower-case HTTP method for non-resource paths. */
  readonly verb: string;
  readonly resourceRequest: boolean;
  /** "" for cluster-scoped requests (and all non-resource ones). */
  readonly namespace: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  /** "" when the request names no object (create, list, watch without a `metadata.name` field selector). */
  readonly name: string;
  /** The URL path of a non-resource request. */
  readonly path: string;
}

/** Attributes of a resource request; unset fields are "". */
export function resourceAttributes(user: UserInfo, a: Partial<Omit<Attributes, "user" | "resourceRequest" | "path">> & { verb: string }): Attributes {
  return {
    user, verb: a.verb, resourceRequest: true, namespace: a.namespace ?? "", apiGroup: a.apiGroup ?? "",
    resource: a.resource ?? "", subresource: a.subresource ?? "", name: a.name ?? "", path: "",
  };
}

/** Attributes of a non-resource request (`/api`, `/version`, `/healthz`…). */
export function nonResourceAttributes(user: UserInfo, verb: string, path: string): Attributes {
  return { user, verb, resourceRequest: false, namespace: "", apiGroup: "", resource: "", subresource: "", name: "", path };
}

/**
 * The attributes of an API request, as kube-apiserver's RequestInfo resolver gives them: the
 * namespace of `/api/v1/namespaces/{name}` is `{name}` itself, and a list or watch whose field
 * selector requires `metadata.name=X` is about the object named X (so a rule with
 * `resourceNames: [X]` allows it).
 */
export function requestAttributes(user: UserInfo, verb: ApiServerVerb, path: ResourcePath, query: URLSearchParams): Attributes {
  let namespace = path.namespace ?? "";
  if (path.group === "" && path.plural === "namespaces" && path.namespace === undefined && path.name !== undefined) namespace = path.name;
  let name = path.name ?? "";
  if ((verb === "list" || verb === "watch") && name === "") name = nameFromFieldSelector(query.get("fieldSelector")) ?? "";
  return resourceAttributes(user, {
    verb, namespace, apiGroup: path.group, resource: path.plural, subresource: path.subresource ?? "", name,
  });
}

function nameFromFieldSelector(text: string | null): string | undefined {
  if (!text) return undefined;
  try {
    const exact = parseFieldSelector(text).requirements.find((r) => r.field === "metadata.name" && r.operator !== "!=");
    return exact && pathSegmentNameErrors(exact.value).length === 0 ? exact.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * kube-apiserver's text for a denied request, e.g. `User "bob" cannot list resource "configmaps"
 * in API group "" in the namespace "default"`.
 */
export function forbiddenMessage(a: Attributes): string {
  const user = JSON.stringify(a.user.name);
  if (!a.resourceRequest) return `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = JSON.stringify(a.subresource ? `${a.resource}/${a.subresource}` : a.resource);
  const where = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : "at the cluster scope";
  return `User ${user} cannot ${a.verb} resource ${resource} in API group ${JSON.stringify(a.apiGroup)} ${where}`;
}

/**
 * A 403 Forbidden `Status` as apimachinery's `NewForbidden` builds it: `<resource>[.<group>]
 * ["<name>"] is forbidden: <detail>`, or `forbidden: <detail>` without a resource.
 */
export function forbiddenError(group: string, resource: string, name: string, detail: string): StatusError {
  const subject = resource === "" ? "" : name === "" ? `${qualifiedResource(resource, group)} is ` : `${qualifiedResource(resource, group)} ${JSON.stringify(name)} is `;
  return new StatusError(403, "Forbidden", `${subject}forbidden: ${detail}`, {
    ...(name ? { name } : {}),
    ...(group ? { group } : {}),
    ...(resource ? { kind: resource } : {}),
  });
}

/** The 403 for a request the authorizer denied (`reason`, when not empty, is appended after `: `). */
export function deniedError(a: Attributes, reason: string): StatusError {
  const detail = reason ? `${forbiddenMessage(a)}: ${reason}` : forbiddenMessage(a);
  return forbiddenError(a.apiGroup, a.resource, a.name, detail);
}

/** The 401 for a request without valid credentials. */
export function unauthorizedError(): StatusError {
  return new StatusError(401, "Unauthorized", "Unauthorized");
}
