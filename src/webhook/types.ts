/**
 * The contract of admission and conversion webhooks: what a user registers on the Manager
 * (`mgr.webhook(Kind, …)`, `mgr.conversion(Kind, …)`), what a handler receives, and what it
 * answers. The server (`server.ts`), the manifests (`configurations.ts`, `gen manifests`) and
 * LocalCluster's admission chain all read these shapes.
 *
 * @module
 */
import type { KubeObject } from "../kinds/kube-object.ts";

/** An admission operation, as `AdmissionRequest.operation` names it. */
export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** Who made the request (`AdmissionRequest.userInfo`). */
export interface AdmissionUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** A group/version/kind or group/version/resource as an AdmissionRequest carries it. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** A group/version/resource. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** `admission.k8s.io/v1` AdmissionRequest, as the API server sends it. */
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

/** What a handler gets beside the object(s). */
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

/** One field error of a denial; becomes a `Status` cause. */
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

/** A validating handler's answer: allowed (optionally with warnings) or denied. */
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

/** A label selector as webhook configurations carry it. */
export interface LabelSelectorShape {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: "In" | "NotIn" | "Exists" | "DoesNotExist"; values?: string[] }[];
}

/** Converts one object between a spoke version and the hub version. */
export interface VersionConverter {
  /** From this version to the hub (the object's apiVersion is set for you). */
  toHub: (obj: KubeObject) => KubeObject;
  /** From the hub to this version (the object's apiVersion is set for you). */
  fromHub: (obj: KubeObject) => KubeObject;
}

/** The conversion of one multi-version kind, hub-and-spoke as controller-runtime does it. */
export interface ConversionOptions {
  /** The hub version (usually the storage version), e.g. `"v1"`. */
  hub: string;
  /** One converter per other served version, by version name. */
  spokes: Readonly<Record<string, VersionConverter>>;
  /** The kind's plural resource name (to find its CRD). Default: guessed as for webhooks. */
  resource?: string;
}

/** One registered admission webhook, as the server and the manifests see it. */
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

/** One registered conversion, as the server and the manifests see it. */
export interface ConversionRegistration {
  readonly group: string;
  readonly kind: string;
  readonly resource: string;
  readonly options: Readonly<ConversionOptions>;
}
