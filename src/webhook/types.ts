/**
 * The contract of admission and conversion webhooks: what a user registers on the Manager
 * (`mgr.webhook(Kind, …)`, `mgr.conversion(Kind, …)`), what a handler receives, and what it
 * answers. The server (`server.ts`), the manifests (`configurations.ts`, `gen manifests`) and
 * LocalCluster's admission chain all read these shapes.
 *
 * @module
 */
import type { KubeObject } from "../kinds/kube-object.ts";

/**
 * The path conversions are served on: controller-runtime's, one for every kind. The server
 * answers ConversionReviews there and the configurations point CRDs at it.
 *
 * @example
 * ```ts
 * const conversionUrl = `https://127.0.0.1:9443${CONVERSION_PATH}`;
 * ```
 */
export const CONVERSION_PATH = "/convert";

/**
 * An admission operation, as `AdmissionRequest.operation` names it.
 *
 * @example
 * ```ts
 * const op: AdmissionOperation = "UPDATE";
 * ```
 */
export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/**
 * Who made the request (`AdmissionRequest.userInfo`).
 *
 * @example
 * ```ts
 * const user: AdmissionUserInfo = { username: "alice", groups: ["system:authenticated"] };
 * ```
 */
export interface AdmissionUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/**
 * A group/version/kind or group/version/resource as an AdmissionRequest carries it.
 *
 * @example
 * ```ts
 * const gvk: GroupVersionKind = { group: "example.com", version: "v1", kind: "Greeting" };
 * ```
 */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/**
 * A group/version/resource.
 *
 * @example
 * ```ts
 * const gvr: GroupVersionResource = { group: "example.com", version: "v1", resource: "greetings" };
 * ```
 */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/**
 * `admission.k8s.io/v1` AdmissionRequest, as the API server sends it.
 *
 * @example
 * ```ts
 * const request: AdmissionRequest = {
 *   uid: "705ab4f5-6393-11e8-b7cc-42010a800002", operation: "CREATE", userInfo: { username: "alice" },
 *   kind: { group: "example.com", version: "v1", kind: "Greeting" },
 *   resource: { group: "example.com", version: "v1", resource: "greetings" },
 *   namespace: "default", object: { apiVersion: "example.com/v1", kind: "Greeting", metadata: { name: "hello" } },
 * };
 * ```
 */
export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: AdmissionOperation;
  userInfo: AdmissionUserInfo;
  object?: KubeObject | null;
  oldObject?: KubeObject | null;
  dryRun?: boolean;
  options?: KubeObject | null;
}

/**
 * What a handler gets beside the object(s).
 *
 * @example
 * ```ts
 * mgr.webhook(Greeting, {
 *   validate: (g, old, ctx) => {
 *     if (ctx.dryRun || ctx.signal.aborted) return;
 *     log.info("validating", { op: ctx.operation, user: ctx.userInfo.username, name: ctx.name });
 *   },
 * });
 * ```
 */
export interface AdmissionContext {
  /** CREATE, UPDATE or DELETE. */
  readonly operation: AdmissionOperation;
  /** True for a dry run (`dryRun=All`): the handler must not write anything of its own. */
  readonly dryRun: boolean;
  /** The requesting user. */
  readonly userInfo: AdmissionUserInfo;
  /** Namespace of the object ("" for cluster-scoped). */
  readonly namespace: string;
  /** Name of the object ("" on a create with `generateName`). */
  readonly name: string;
  /** The subresource written ("" for the object itself, "status" for its status). */
  readonly subResource: string;
  /** Aborted when the webhook's `timeoutSeconds` has passed (the API server gave up). */
  readonly signal: AbortSignal;
  /** The whole request, for what the fields above leave out. */
  readonly request: AdmissionRequest;
}

/**
 * One field error of a denial; becomes a `Status` cause.
 *
 * @example
 * ```ts
 * const error: FieldError = { field: "spec.replicas", message: "must be at most 5", reason: "FieldValueInvalid" };
 * ```
 */
export interface FieldError {
  /** The field, dotted as Kubernetes writes it: `spec.replicas`, `spec.ports[0].name`. */
  field: string;
  /** What is wrong and how to fix it. */
  message: string;
  /**
   * The cause reason (default `FieldValueInvalid`): `FieldValueRequired`,
   * `FieldValueForbidden`, `FieldValueNotSupported`, `FieldValueDuplicate`, ….
   */
  reason?: string;
}

/**
 * A validating handler's answer: allowed (optionally with warnings) or denied.
 *
 * @example
 * ```ts
 * const ok: ValidationOutcome = { allowed: true, warnings: ["spec.size is deprecated"] };
 * const no: ValidationOutcome = { allowed: false, message: "spec.name is required", causes: [{ field: "spec.name", message: "required", reason: "FieldValueRequired" }], code: 422 };
 * ```
 */
export type ValidationOutcome =
  | { readonly allowed: true; readonly warnings?: readonly string[] }
  | {
      readonly allowed: false;
      /** Shown to the user after `admission webhook "…" denied the request: `. */
      readonly message: string;
      /** Field errors, as `status.details.causes`. */
      readonly causes?: readonly FieldError[];
      /** HTTP code of the denial (default 403; 422 for field errors is common). */
      readonly code?: number;
      readonly warnings?: readonly string[];
    };

/**
 * The handlers and options of one admission webhook on one kind. Either handler may be left
 * out; each present one is its own webhook (mutating for `default`, validating for
 * `validate`), on its own path.
 *
 * @example
 * ```ts
 * const options: WebhookOptions<Greeting> = {
 *   default: (g) => ({ ...g, spec: { ...g.spec, name: g.spec?.name ?? "world" } }),
 *   validate: (g) => (g.spec?.name === "" ? { allowed: false, message: "spec.name must not be empty" } : undefined),
 *   failurePolicy: "Fail",
 *   timeoutSeconds: 5,
 * };
 * mgr.webhook(Greeting, options);
 * ```
 */
export interface WebhookOptions<T extends KubeObject = KubeObject> {
  /**
   * Defaulting (mutating webhook): return the object as it should be stored (or mutate the
   * argument and return nothing). The server answers the JSON Patch between what it received
   * and what this returns.
   */
  default?: (obj: T, ctx: AdmissionContext) => T | void | Promise<T | void>;
  /**
   * Validation (validating webhook): `obj` is the new object (on DELETE, the object being
   * deleted), `oldObj` the stored one on UPDATE and DELETE. Return nothing to allow, or an
   * outcome from `allow(warnings)` / `deny(message, causes)`. A throw is a denial naming the
   * error (see the server's documentation).
   */
  validate?: (obj: T, oldObj: T | undefined, ctx: AdmissionContext) => ValidationOutcome | void | Promise<ValidationOutcome | void>;
  /** Operations `validate` is called for. Default `["CREATE", "UPDATE"]`. */
  validateOperations?: readonly AdmissionOperation[];
  /** Operations `default` is called for. Default `["CREATE", "UPDATE"]`. */
  defaultOperations?: readonly AdmissionOperation[];
  /** The kind's plural resource name. Default: guessed from the kind as kubebuilder does (`Greeting` → `greetings`, `Policy` → `policies`). */
  resource?: string;
  /** Whether the kind is namespaced (the rules' `scope`). Default `"*"`. */
  scope?: "Namespaced" | "Cluster" | "*";
  /** Also call the webhooks for these subresources (e.g. `["status"]`). Default none. */
  subresources?: readonly string[];
  /** `failurePolicy` of the generated configurations. Default `"Fail"`. */
  failurePolicy?: "Fail" | "Ignore";
  /** `timeoutSeconds` (1–30) of the generated configurations; also bounds `ctx.signal`. Default 10. */
  timeoutSeconds?: number;
  /** `matchPolicy`. Default `"Equivalent"`. */
  matchPolicy?: "Exact" | "Equivalent";
  /** `namespaceSelector` of the generated configurations. */
  namespaceSelector?: LabelSelectorShape;
  /** `objectSelector` of the generated configurations. */
  objectSelector?: LabelSelectorShape;
  /** `reinvocationPolicy` of the mutating webhook. Default `"Never"`. */
  reinvocationPolicy?: "Never" | "IfNeeded";
  /** Path prefix override; default paths are `/mutate-<group>-<version>-<kind>` and `/validate-…` (kubebuilder's, dots as dashes, lowercase). */
  path?: { mutate?: string; validate?: string };
}

/**
 * A label selector as webhook configurations carry it.
 *
 * @example
 * ```ts
 * const selector: LabelSelectorShape = { matchExpressions: [{ key: "env", operator: "In", values: ["dev", "test"] }] };
 * ```
 */
export interface LabelSelectorShape {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: "In" | "NotIn" | "Exists" | "DoesNotExist"; values?: string[] }[];
}

/**
 * Converts one object between a spoke version and the hub version.
 *
 * @example
 * ```ts
 * const v1alpha1: VersionConverter = {
 *   toHub: ({ spec, ...rest }) => ({ ...rest, spec: { name: (spec as { who?: string }).who } }),
 *   fromHub: ({ spec, ...rest }) => ({ ...rest, spec: { who: (spec as { name?: string }).name } }),
 * };
 * ```
 */
export interface VersionConverter {
  /** From this version to the hub (the object's apiVersion is set for you). */
  toHub: (obj: KubeObject) => KubeObject;
  /** From the hub to this version (the object's apiVersion is set for you). */
  fromHub: (obj: KubeObject) => KubeObject;
}

/**
 * The conversion of one multi-version kind, hub-and-spoke as controller-runtime does it.
 *
 * @example
 * ```ts
 * declare const v1alpha1: VersionConverter;
 * const conversion: ConversionOptions = { hub: "v1", spokes: { v1alpha1 } };
 * mgr.conversion(Greeting, conversion);
 * ```
 */
export interface ConversionOptions {
  /** The hub version (usually the storage version), e.g. `"v1"`. */
  hub: string;
  /** One converter per other served version, by version name. */
  spokes: Readonly<Record<string, VersionConverter>>;
  /** The kind's plural resource name (to find its CRD). Default: guessed as for webhooks. */
  resource?: string;
}

/**
 * One registered admission webhook, as the server and the manifests see it.
 *
 * @example
 * ```ts
 * for (const reg of mgr.webhookRegistrations().admission) console.log(reg.type, reg.name, reg.path);
 * ```
 */
export interface AdmissionRegistration {
  /** `mutating` for a `default` handler, `validating` for `validate`. */
  readonly type: "mutating" | "validating";
  /** The webhook's name in configurations: `m<kind>.<group>` / `v<kind>.<group>` lowercase (a DNS subdomain with ≥ 3 labels, as kube-apiserver requires: `vgreeting.example.com`). */
  readonly name: string;
  /** HTTP path on the webhook server. */
  readonly path: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly operations: readonly AdmissionOperation[];
  readonly options: Readonly<WebhookOptions>;
}

/**
 * One registered conversion, as the server and the manifests see it.
 *
 * @example
 * ```ts
 * for (const reg of mgr.webhookRegistrations().conversion) console.log(reg.kind, reg.group, reg.options.hub);
 * ```
 */
export interface ConversionRegistration {
  readonly group: string;
  readonly kind: string;
  readonly resource: string;
  readonly options: Readonly<ConversionOptions>;
}
