/**
 * The review resources: `authorization.k8s.io/v1` SelfSubjectAccessReview (what `kubectl auth
 * can-i` asks), SelfSubjectRulesReview (`kubectl auth can-i --list`), SubjectAccessReview and
 * LocalSubjectAccessReview (for someone else), and `authentication.k8s.io/v1`
 * SelfSubjectReview (`kubectl auth whoami`). Each is create-only: the answer comes back at once
 * (201) with `status` filled in, and nothing is stored.
 *
 * Without authorization mode every request is allowed, so every review says so (as
 * kube-apiserver's AlwaysAllow authorizer), and the requester is LocalCluster's admin.
 */
import type { ApiContext, ResourceRequest } from "../api-context.ts";
import type { KubeObject, ResourceType } from "../resource-type.ts";
import type { StatusCause } from "../status.ts";
import { badRequest, invalid, invalidValue } from "../status.ts";
import { sendJson } from "../http-io.ts";
import { checkKind, objectBody } from "../write-handlers.ts";
import { aggregate } from "../rbac/rbac-authorizer.ts";
import type { Attributes } from "./attributes.ts";
import { nonResourceAttributes, resourceAttributes } from "./attributes.ts";
import type { UserInfo } from "./user-info.ts";
import { ADMIN_USER } from "./user-info.ts";

type Json = Record<string, any>;

const REVIEWS: ReadonlySet<string> = new Set([
  "authorization.k8s.io/selfsubjectaccessreviews",
  "authorization.k8s.io/selfsubjectrulesreviews",
  "authorization.k8s.io/subjectaccessreviews",
  "authorization.k8s.io/localsubjectaccessreviews",
  "authentication.k8s.io/selfsubjectreviews",
]);

/** Whether `type` is a review (answered by {@link handleReview}, never stored). */
export function isReview(type: ResourceType): boolean {
  return REVIEWS.has(`${type.group}/${type.plural}`);
}

/** `POST` of a review: answers 201 with the review and its `status`. */
export async function handleReview(ctx: ApiContext, r: ResourceRequest): Promise<void> {
  const body = await objectBody(r);
  checkKind(r, body);
  const requester = r.user ?? ADMIN_USER;
  const o = body as Json;
  const spec = (o.spec ?? {}) as Json;
  let status: Json;
  switch (r.type.kind) {
    case "SelfSubjectAccessReview":
      status = accessStatus(ctx, attributesOf(r.type, spec, requester));
      break;
    case "SubjectAccessReview":
    case "LocalSubjectAccessReview": {
      if (r.type.kind === "LocalSubjectAccessReview") localNamespace(r, spec);
      const user: UserInfo = { name: spec.user ?? "", groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}) };
      status = accessStatus(ctx, attributesOf(r.type, spec, user, true));
      break;
    }
    case "SelfSubjectRulesReview":
      if (!spec.namespace) throw badRequest("no namespace on request");
      status = rulesStatus(ctx, requester, spec.namespace);
      break;
    default:
      status = { userInfo: { username: requester.name, ...(requester.uid ? { uid: requester.uid } : {}), groups: requester.groups, ...(requester.extra ? { extra: requester.extra } : {}) } };
  }
  const answer: KubeObject = { kind: body.kind, apiVersion: body.apiVersion, metadata: body.metadata ?? {}, ...(o.spec !== undefined ? { spec } : {}), status };
  sendJson(r.res, 201, JSON.stringify(answer));
}

/** The attributes a (self) subject access review asks about; 422 unless exactly one kind of attributes is given. */
function attributesOf(type: ResourceType, spec: Json, user: UserInfo, needsSubject = false): Attributes {
  const res = spec.resourceAttributes as Json | undefined;
  const nonRes = spec.nonResourceAttributes as Json | undefined;
  const causes: StatusCause[] = [];
  if (res && nonRes) causes.push(invalidStruct("spec.nonResourceAttributes", nonRes, "cannot be specified in combination with resourceAttributes"));
  else if (!res && !nonRes) {
    causes.push({ reason: "FieldValueInvalid", field: "spec.resourceAttributes", message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' });
  }
  if (needsSubject && !spec.user && !spec.groups?.length) causes.push(invalidValue("spec.user", spec.user ?? "", "at least one of user or group must be specified"));
  if (type.kind === "LocalSubjectAccessReview" && nonRes) {
    causes.push(invalidStruct("spec.nonResourceAttributes", nonRes, "disallowed on this kind of request"));
  }
  if (causes.length) throw invalid(type.kind, type.group, "", causes);
  if (nonRes) return nonResourceAttributes(user, nonRes.verb ?? "", nonRes.path ?? "");
  return resourceAttributes(user, {
    verb: res!.verb ?? "", namespace: res!.namespace ?? "", apiGroup: res!.group ?? "", resource: res!.resource ?? "",
    subresource: res!.subresource ?? "", name: res!.name ?? "",
  });
}

/** Go's `%#v` of the internal NonResourceAttributes in a field error. */
function invalidStruct(field: string, nonRes: Json, detail: string): StatusCause {
  const shown = `authorization.NonResourceAttributes{Path:${JSON.stringify(String(nonRes.path ?? ""))}, Verb:${JSON.stringify(String(nonRes.verb ?? ""))}}`;
  return { reason: "FieldValueInvalid", field, message: `Invalid value: ${shown}: ${detail}` };
}

/** A LocalSubjectAccessReview is about its own namespace: the attributes' namespace defaults to it and must match it. */
function localNamespace(r: ResourceRequest, spec: Json): void {
  const namespace = r.path.namespace ?? "";
  const res = spec.resourceAttributes as Json | undefined;
  if (res && res.namespace && res.namespace !== namespace) throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
  if (res) res.namespace = namespace;
}

function accessStatus(ctx: ApiContext, a: Attributes): Json {
  if (!ctx.access) return { allowed: true };
  const decision = ctx.access.authorizer.authorize(a);
  return { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) };
}

function rulesStatus(ctx: ApiContext, user: UserInfo, namespace: string): Json {
  if (!ctx.access) {
    return {
      resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
      nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
      incomplete: false,
    };
  }
  const { rules, errors } = ctx.access.authorizer.rulesFor(user, namespace);
  return {
    resourceRules: rules.filter((p) => p.resources?.length).map((p) => ({
      verbs: p.verbs, ...(p.apiGroups ? { apiGroups: p.apiGroups } : {}), resources: p.resources, ...(p.resourceNames ? { resourceNames: p.resourceNames } : {}),
    })),
    nonResourceRules: rules.filter((p) => p.nonResourceURLs?.length).map((p) => ({ verbs: p.verbs, nonResourceURLs: p.nonResourceURLs })),
    incomplete: false,
    ...(errors.length ? { evaluationError: aggregate(errors) } : {}),
  };
}
