/**
 * What LocalCluster knows about one served resource (a built-in kind or a CRD's kind).
 */
import type { ObjectMeta } from "../kinds/kube-object.ts";
import type { ServiceResolver, WebhookClientConfig } from "./admission/webhook-client.ts";

/** Objects as stored: the SDK's plain-JSON object types. */
export type { KubeObject, ObjectMeta, OwnerReference } from "../kinds/kube-object.ts";

/**
 * metadata.managedFields[] as stored: the wire shape (every field optional, since clients may
 * send their own). The entries LocalCluster writes always carry manager, operation, apiVersion,
 * fieldsType "FieldsV1" and fieldsV1.
 */
export type ManagedFieldsEntry = NonNullable<ObjectMeta["managedFields"]>[number];

/** How a list field merges (strategic merge and server-side apply). */
export type ListType =
  | { type: "atomic" }
  | { type: "set" }
  | { type: "map"; keys: string[] };

/**
 * Answers how the list at a field path merges. `path` is the chain of map keys from the
 * object root with list indices removed, e.g. `["spec","template","spec","containers","env"]`.
 */
export type ListTypeLookup = (path: readonly string[]) => ListType;

/** A printer column (CRD `additionalPrinterColumns`). */
export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  priority?: number;
  format?: string;
}

/** The scale subresource mapping of a CRD. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/**
 * A CRD's `spec.conversion` with `strategy: Webhook`, as LocalCluster calls it: every object
 * read or written at a version other than the one it is stored at goes through a
 * `ConversionReview` POSTed to `clientConfig`.
 */
export interface ConversionWebhook {
  /** The CRD's name, e.g. `greetings.example.com`. */
  crdName: string;
  /** `spec.conversion.webhook.clientConfig` (`url`, or `service`, and `caBundle`). */
  clientConfig: WebhookClientConfig;
  /** `spec.conversion.webhook.conversionReviewVersions`, in preference order. */
  conversionReviewVersions: readonly string[];
  /** Maps a `clientConfig.service` to an address LocalCluster can reach, when it has one. */
  resolveService?: ServiceResolver;
  /**
   * Makes the HTTPS call (LocalCluster's admission chain, so injected webhook faults named
   * after the CRD apply); `postReview` to `clientConfig` when absent.
   */
  post?: ConversionPost;
}

/** POSTs a review to a webhook: `name` names the webhook for fault injection (the CRD's name). */
export type ConversionPost = (name: string, clientConfig: WebhookClientConfig, body: unknown, timeoutMs: number) => Promise<unknown>;

/** One served resource at one group/version. */
export interface ResourceType {
  /** "" for the core group. */
  group: string;
  version: string;
  kind: string;
  /** Lower-case plural, the URL segment. */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Served subresources. */
  status: boolean;
  scale: ScaleSubresource | undefined;
  /** True for kinds compiled into LocalCluster; false for CRD kinds. */
  builtin: boolean;
  /** Whether `metadata.generation` is maintained (bumped when anything outside metadata/status changes). */
  hasGeneration: boolean;
  /** PUT without metadata.resourceVersion is rejected with 422 (CRs, CRDs, Leases). */
  requireResourceVersion: boolean;
  /** The storage key shared by all versions/views of one resource, e.g. "apps/deployments", "/events". */
  storageKey: string;
  /** CRD printer columns, if any. */
  printerColumns: PrinterColumn[];
  /** The CRD's openAPIV3Schema for this version (CR kinds only). */
  schema: Record<string, unknown> | undefined;
  /** How lists merge for this kind. */
  listType: ListTypeLookup;
  /** The version objects are stored at, when it differs from `version` (multi-version CRDs). */
  storageVersion?: string;
  /** The list kind, when it is not `<Kind>List` (a CRD's `spec.names.listKind`). */
  listKind?: string;
  /**
   * True when objects may be stored at versions other than the storage version (the CRD's
   * `status.storedVersions` lists more than it): views then check each object's apiVersion.
   */
  mixedStorageVersions?: boolean;
  /** The CRD's conversion webhook, when its strategy is `Webhook` (absent for `None`). */
  conversion?: ConversionWebhook;
}

/** `group/version` or `version` for core. */
export function apiVersionOf(t: Pick<ResourceType, "group" | "version">): string {
  return t.group === "" ? t.version : `${t.group}/${t.version}`;
}
