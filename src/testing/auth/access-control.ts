/**
 * Authorization mode's request pipeline, in kube-apiserver's filter order: authenticate the
 * bearer token (401 otherwise), apply impersonation headers, authorize the request (403
 * otherwise); and, for writes, the admission checks that depend on who writes (create on
 * apply, RBAC escalation, owner references).
 */
import type { IncomingMessage } from "node:http";
import type { ObjectStore } from "../object-store.ts";
import type { Registry } from "../registry.ts";
import type { KubeObject, ResourceType } from "../resource-type.ts";
import { RbacIndex } from "../rbac/rbac-index.ts";
import { RbacAuthorizer } from "../rbac/rbac-authorizer.ts";
import { checkEscalation } from "../rbac/escalation.ts";
import type { RbacWrite } from "../rbac/escalation.ts";
import { isRbacType } from "../rbac/rbac-validation.ts";
import type { Attributes } from "./attributes.ts";
import { deniedError, forbiddenError, resourceAttributes, unauthorizedError } from "./attributes.ts";
import { Authorizer } from "./authorizer.ts";
import { TokenAuthenticator } from "./authenticator.ts";
import { impersonate } from "./impersonation.ts";
import { checkOwnerReferences } from "./owner-references.ts";
import type { UserInfo } from "./user-info.ts";
import { isSuperuser } from "./user-info.ts";

/** Paths answered without credentials: health checks, which load balancers and probes call. */
const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/healthz", "/livez", "/readyz"]);

/**
 * Checks run on the object a write is about to store (after defaults and validation, before
 * storage, dry runs included). `old` is the stored object, undefined when the write creates.
 */
export type WriteAdmission = (next: KubeObject, old: KubeObject | undefined) => void;

/** The write a {@link WriteAdmission} guards. */
export interface AdmittedWrite {
  readonly type: ResourceType;
  /** The API server verb of the request (`patch` for server-side apply). */
  readonly verb: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

/** Authentication, authorization and the identity-dependent admission checks. */
export class AccessControl {
  readonly tokens = new TokenAuthenticator();
  readonly authorizer: Authorizer;
  readonly #registry: Registry;

  constructor(store: ObjectStore, registry: Registry) {
    this.authorizer = new Authorizer(new RbacAuthorizer(new RbacIndex(store)));
    this.#registry = registry;
  }

  /** Whether a non-resource path is served without credentials. */
  isPublic(path: string): boolean {
    return PUBLIC_PATHS.has(path);
  }

  /**
   * The identity a request acts as (its token's, or the one it impersonates).
   *
   * @throws StatusError 401 without a known bearer token; 403 or 500 for impersonation the
   *   requester may not do.
   */
  identify(req: IncomingMessage): UserInfo {
    const user = this.tokens.authenticate(req);
    if (!user) throw unauthorizedError();
    return impersonate(req, user, this.authorizer);
  }

  /** Throws kube-apiserver's 403 unless the request is allowed. */
  authorize(a: Attributes): void {
    const decision = this.authorizer.authorize(a);
    if (!decision.allowed) throw deniedError(a, decision.reason);
  }

  /**
   * The admission checks of a write by `user`, or undefined for superusers (who pass them all):
   *
   * - a patch or update that creates the object (server-side apply of a new name) needs
   *   `create` too: 403 `<resource> "<name>" is forbidden: ` otherwise, as kube-apiserver;
   * - RBAC objects may not grant more than the writer holds (see `rbac/escalation.ts`);
   * - owner references (see `owner-references.ts`).
   */
  writeAdmission(user: UserInfo, w: AdmittedWrite): WriteAdmission | undefined {
    if (isSuperuser(user)) return undefined;
    const namespace = w.namespace ?? "";
    return (next, old) => {
      if (!old && w.verb !== "create") {
        const attrs = resourceAttributes(user, {
          verb: "create", namespace, apiGroup: w.type.group, resource: w.type.plural, name: w.name ?? "",
        });
        const decision = this.authorizer.authorize(attrs);
        if (!decision.allowed) throw forbiddenError(w.type.group, w.type.plural, w.name ?? "", decision.reason);
      }
      if (isRbacType(w.type) && w.subresource === undefined) {
        const rbacWrite: RbacWrite = { plural: w.type.plural as RbacWrite["plural"], namespace, requestName: w.name };
        checkEscalation(this.authorizer, user, rbacWrite, next, old);
      }
      checkOwnerReferences(this.authorizer, this.#registry, user, { type: w.type, namespace, subresource: w.subresource }, next, old);
    };
  }
}
