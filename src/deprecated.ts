/**
 * Names the root entry exported before 0.2 that now live in a subpath entry or under a new
 * name, re-exported here for one minor release so upgrading gives deprecation warnings, not
 * broken imports. Each says where the name lives now; CHANGELOG.md has the same table. They
 * are removed in 0.3.
 * @module
 */
export {
  /** @deprecated Since 0.2, import { AlreadyExistsError } from "operator-runtime/client". */
  AlreadyExistsError,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { AlreadyOwnedError } from "operator-runtime/controller". */
  AlreadyOwnedError,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { and } from "operator-runtime/controller". */
  and,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { apiErrorFor } from "operator-runtime/client". */
  apiErrorFor,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { ApiReader } from "operator-runtime/client". */
  ApiReader,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { ApiResource } from "operator-runtime/rbac". */
  ApiResource,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { assignBuckets } from "operator-runtime/sharding". */
  assignBuckets,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { bucketLabelSelector } from "operator-runtime/sharding". */
  bucketLabelSelector,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { bucketOfUid } from "operator-runtime/sharding". */
  bucketOfUid,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2 it is `TokenBucketRateLimiterOptions`: import { TokenBucketRateLimiterOptions } from "operator-runtime/controller". */
  TokenBucketRateLimiterOptions as BucketOptions,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { bucketRange } from "operator-runtime/sharding". */
  bucketRange,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { bucketRanges } from "operator-runtime/sharding". */
  bucketRanges,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2 it is `tokenBucketRateLimiter`: import { tokenBucketRateLimiter } from "operator-runtime/controller". */
  tokenBucketRateLimiter as bucketRateLimiter,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { BUCKETS_ANNOTATION } from "operator-runtime/sharding". */
  BUCKETS_ANNOTATION,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { BUILDER_VERBS } from "operator-runtime/rbac". */
  BUILDER_VERBS,
} from "./entries/rbac.ts";
export type {
  /** @deprecated Since 0.2, import { BuilderEventRecorder } from "operator-runtime/builder". */
  BuilderEventRecorder,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { Cache } from "operator-runtime/cache". */
  Cache,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { CacheInformerOptions } from "operator-runtime/cache". */
  CacheInformerOptions,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { CacheOptions } from "operator-runtime/cache". */
  CacheOptions,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { CacheTransform } from "operator-runtime/cache". */
  CacheTransform,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { CacheTransformOption } from "operator-runtime/cache". */
  CacheTransformOption,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { canonicalJson } from "operator-runtime/builder". */
  canonicalJson,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { CLAIMING_ANNOTATION } from "operator-runtime/sharding". */
  CLAIMING_ANNOTATION,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { ClientRequestRecord } from "operator-runtime/client". */
  ClientRequestRecord,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { COMPONENT_LABEL } from "operator-runtime/builder". */
  COMPONENT_LABEL,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { configDataHash } from "operator-runtime/builder". */
  configDataHash,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { configHashEnvName } from "operator-runtime/builder". */
  configHashEnvName,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { ConfigReference } from "operator-runtime/builder". */
  ConfigReference,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { configReferenceKey } from "operator-runtime/builder". */
  configReferenceKey,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { Controller } from "operator-runtime/controller". */
  Controller,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ControllerAccess } from "operator-runtime/rbac". */
  ControllerAccess,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2 it is `ControllerRegistration`: import { ControllerRegistration } from "operator-runtime". */
  ControllerRegistration as ControllerBuilder,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ControllerMetrics } from "operator-runtime/controller". */
  ControllerMetrics,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { controllerOf } from "operator-runtime/controller". */
  controllerOf,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ControllerOptions } from "operator-runtime/controller". */
  ControllerOptions,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { controllerRef } from "operator-runtime/controller". */
  controllerRef,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ControllerSharding } from "operator-runtime/controller". */
  ControllerSharding,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { DEFAULT_EXPECTATIONS_TTL_MS } from "operator-runtime/controller". */
  DEFAULT_EXPECTATIONS_TTL_MS,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { defaultControllerRateLimiter } from "operator-runtime/controller". */
  defaultControllerRateLimiter,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { DeleteOptions } from "operator-runtime/client". */
  DeleteOptions,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { DESIRED_HASH_ANNOTATION } from "operator-runtime/builder". */
  DESIRED_HASH_ANNOTATION,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { DropReason } from "operator-runtime/client". */
  DropReason,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { escapeFieldValue } from "operator-runtime/cache". */
  escapeFieldValue,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { EventInput } from "operator-runtime/client". */
  EventInput,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { EventRecorderEvents } from "operator-runtime/client". */
  EventRecorderEvents,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { EventRecorderOptions } from "operator-runtime/client". */
  EventRecorderOptions,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { EventReference } from "operator-runtime/client". */
  EventReference,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { EventSeries } from "operator-runtime/client". */
  EventSeries,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { EventSink } from "operator-runtime/client". */
  EventSink,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { EventsV1Event } from "operator-runtime/client". */
  EventsV1Event,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { EventType } from "operator-runtime/client". */
  EventType,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { Expectations } from "operator-runtime/controller". */
  Expectations,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ExpectationsOptions } from "operator-runtime/controller". */
  ExpectationsOptions,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ExponentialFailureOptions } from "operator-runtime/controller". */
  ExponentialFailureOptions,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { exponentialFailureRateLimiter } from "operator-runtime/controller". */
  exponentialFailureRateLimiter,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { FieldOperator } from "operator-runtime/cache". */
  FieldOperator,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { FieldRequirement } from "operator-runtime/cache". */
  FieldRequirement,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { FieldSelector } from "operator-runtime/cache". */
  FieldSelector,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { fieldSelectorMatcher } from "operator-runtime/cache". */
  fieldSelectorMatcher,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { FinalizerClient } from "operator-runtime/controller". */
  FinalizerClient,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { findConfigReferences } from "operator-runtime/builder". */
  findConfigReferences,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { fnv1a64 } from "operator-runtime/cache". */
  fnv1a64,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { ForbiddenError } from "operator-runtime/client". */
  ForbiddenError,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { formatShardSelector } from "operator-runtime/cache". */
  formatShardSelector,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { GoneError } from "operator-runtime/client". */
  GoneError,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { hashObject } from "operator-runtime/builder". */
  hashObject,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { HashRange } from "operator-runtime/cache". */
  HashRange,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { hasLabels } from "operator-runtime/controller". */
  hasLabels,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { hasReadyCondition } from "operator-runtime/controller". */
  hasReadyCondition,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { HealthServer } from "operator-runtime/controller". */
  HealthServer,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { httpEventSink } from "operator-runtime/client". */
  httpEventSink,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { HttpEventSink } from "operator-runtime/client". */
  HttpEventSink,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { HttpEventSinkOptions } from "operator-runtime/client". */
  HttpEventSinkOptions,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { IndexFunc } from "operator-runtime/cache". */
  IndexFunc,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { Informer } from "operator-runtime/cache". */
  Informer,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { InformerEventHandler } from "operator-runtime/cache". */
  InformerEventHandler,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { InformerSource } from "operator-runtime/controller". */
  InformerSource,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { injectConfigHashes } from "operator-runtime/builder". */
  injectConfigHashes,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { Input } from "operator-runtime/client". */
  Input,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2 it is `DesiredInventory`: import { DesiredInventory } from "operator-runtime/builder". */
  DesiredInventory as InternalStore,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { InvalidError } from "operator-runtime/client". */
  InvalidError,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { InvalidSelectorError } from "operator-runtime/cache". */
  InvalidSelectorError,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { isTerminalError } from "operator-runtime/controller". */
  isTerminalError,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { jsonLineSink } from "operator-runtime/client". */
  jsonLineSink,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { jsonSink } from "operator-runtime/client". */
  jsonSink,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { keyOf } from "operator-runtime/controller". */
  keyOf,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { KindAccess } from "operator-runtime/rbac". */
  KindAccess,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { kindFromModel } from "operator-runtime/client". */
  kindFromModel,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { KindRef } from "operator-runtime/client". */
  KindRef,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { KindUse } from "operator-runtime/rbac". */
  KindUse,
} from "./entries/rbac.ts";
export type {
  /** @deprecated Since 0.2, import { KubeStatus } from "operator-runtime/client". */
  KubeStatus,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { LabelOperator } from "operator-runtime/cache". */
  LabelOperator,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { LabelRequirement } from "operator-runtime/cache". */
  LabelRequirement,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { labelsChanged } from "operator-runtime/controller". */
  labelsChanged,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { LabelSelector } from "operator-runtime/cache". */
  LabelSelector,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { labelSelectorFromObject } from "operator-runtime/cache". */
  labelSelectorFromObject,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { labelSelectorMatcher } from "operator-runtime/cache". */
  labelSelectorMatcher,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { LabelSelectorObject } from "operator-runtime/cache". */
  LabelSelectorObject,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { LabelSelectorRequirementObject } from "operator-runtime/cache". */
  LabelSelectorRequirementObject,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { LeaderElectionOptions } from "operator-runtime/controller". */
  LeaderElectionOptions,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { LeaderElector } from "operator-runtime/controller". */
  LeaderElector,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { LEAVING_ANNOTATION } from "operator-runtime/sharding". */
  LEAVING_ANNOTATION,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { ListCallOptions } from "operator-runtime/client". */
  ListCallOptions,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { ListOptions } from "operator-runtime/client". */
  ListOptions,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { ListPage } from "operator-runtime/client". */
  ListPage,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { LoggerOptions } from "operator-runtime/client". */
  LoggerOptions,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { LogLevel } from "operator-runtime/client". */
  LogLevel,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { LogRecord } from "operator-runtime/client". */
  LogRecord,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { LogSink } from "operator-runtime/client". */
  LogSink,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { MANAGED_BY_LABEL } from "operator-runtime/builder". */
  MANAGED_BY_LABEL,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { MapFunc } from "operator-runtime/controller". */
  MapFunc,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { maxOfRateLimiters } from "operator-runtime/controller". */
  maxOfRateLimiters,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { memberLeaseName } from "operator-runtime/sharding". */
  memberLeaseName,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { Metrics } from "operator-runtime/controller". */
  Metrics,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { MetricsProvider } from "operator-runtime/controller". */
  MetricsProvider,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ModelObject } from "operator-runtime/client". */
  ModelObject,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { normalizeShardSelector } from "operator-runtime/cache". */
  normalizeShardSelector,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ObjectInput } from "operator-runtime/client". */
  ObjectInput,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { objectKey } from "operator-runtime/cache". */
  objectKey,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ObjectReader } from "operator-runtime/client". */
  ObjectReader,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { ObjectRef } from "operator-runtime/client". */
  ObjectRef,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { or } from "operator-runtime/controller". */
  or,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { OWNER_UID_INDEX } from "operator-runtime/cache". */
  OWNER_UID_INDEX,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { OWNER_UID_LABEL } from "operator-runtime/builder". */
  OWNER_UID_LABEL,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { OwnerIndexedReader } from "operator-runtime/client". */
  OwnerIndexedReader,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { ownerRequests } from "operator-runtime/controller". */
  ownerRequests,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { parseFieldSelector } from "operator-runtime/cache". */
  parseFieldSelector,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { parseLabelSelector } from "operator-runtime/cache". */
  parseLabelSelector,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { parseShardSelector } from "operator-runtime/cache". */
  parseShardSelector,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { PatchType } from "operator-runtime/client". */
  PatchType,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { PendingExpectations } from "operator-runtime/controller". */
  PendingExpectations,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { Plain } from "operator-runtime/client". */
  Plain,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { PolicyRule } from "operator-runtime/rbac". */
  PolicyRule,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { prune } from "operator-runtime/builder". */
  prune,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { PruneOptions } from "operator-runtime/builder". */
  PruneOptions,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { RateLimiter } from "operator-runtime/controller". */
  RateLimiter,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { RbacManifestOptions } from "operator-runtime/rbac". */
  RbacManifestOptions,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { rbacManifests } from "operator-runtime/rbac". */
  rbacManifests,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { rbacRules } from "operator-runtime/rbac". */
  rbacRules,
} from "./entries/rbac.ts";
export type {
  /** @deprecated Since 0.2, import { RbacRules } from "operator-runtime/rbac". */
  RbacRules,
} from "./entries/rbac.ts";
export type {
  /** @deprecated Since 0.2, import { RbacSource } from "operator-runtime/rbac". */
  RbacSource,
} from "./entries/rbac.ts";
export type {
  /** @deprecated Since 0.2 it is `Action`: import { Action } from "operator-runtime". */
  Action as ReconcileAction,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2 it is `BuilderResult`: import { BuilderResult } from "operator-runtime". */
  BuilderResult as ReconcileResult,
} from "./entries/builder.ts";
export type {
  /** @deprecated Since 0.2, import { RecordedEvent } from "operator-runtime/client". */
  RecordedEvent,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { REDACTED } from "operator-runtime/client". */
  REDACTED,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { Reflector } from "operator-runtime/cache". */
  Reflector,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ReflectorOptions } from "operator-runtime/cache". */
  ReflectorOptions,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ReflectorSink } from "operator-runtime/cache". */
  ReflectorSink,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ReflectorStats } from "operator-runtime/cache". */
  ReflectorStats,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ReflectorTimings } from "operator-runtime/cache". */
  ReflectorTimings,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { rendezvousScore } from "operator-runtime/sharding". */
  rendezvousScore,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { REPLICA_SET_LABEL } from "operator-runtime/controller". */
  REPLICA_SET_LABEL,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { replicaDeletionOrder } from "operator-runtime/controller". */
  replicaDeletionOrder,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ReplicaSetInput } from "operator-runtime/controller". */
  ReplicaSetInput,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { ReplicaSetReconciler } from "operator-runtime/controller". */
  ReplicaSetReconciler,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ReplicaSetReconcilerOptions } from "operator-runtime/controller". */
  ReplicaSetReconcilerOptions,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ReplicaSetResult } from "operator-runtime/controller". */
  ReplicaSetResult,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { ReplicaTemplate } from "operator-runtime/controller". */
  ReplicaTemplate,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { RequestCounter } from "operator-runtime/client". */
  RequestCounter,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { RequestFilter } from "operator-runtime/client". */
  RequestFilter,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { requestFor } from "operator-runtime/controller". */
  requestFor,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { RequestLog } from "operator-runtime/client". */
  RequestLog,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { requestOf } from "operator-runtime/controller". */
  requestOf,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { RequestOptions } from "operator-runtime/client". */
  RequestOptions,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { RequestRecord } from "operator-runtime/client". */
  RequestRecord,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { RequestVerb } from "operator-runtime/client". */
  RequestVerb,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { ResourceInfo } from "operator-runtime/client". */
  ResourceInfo,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { resourceResolver } from "operator-runtime/rbac". */
  resourceResolver,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { resourceVersionChanged } from "operator-runtime/controller". */
  resourceVersionChanged,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2 it is `Action`: import { Action } from "operator-runtime". */
  Action as Result,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { RETAINED_BY_ANNOTATION } from "operator-runtime/builder". */
  RETAINED_BY_ANNOTATION,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { RING_LABEL } from "operator-runtime/sharding". */
  RING_LABEL,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { RingLostReason } from "operator-runtime/sharding". */
  RingLostReason,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { RingMembership } from "operator-runtime/sharding". */
  RingMembership,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { RingMembershipOptions } from "operator-runtime/sharding". */
  RingMembershipOptions,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { Runnable } from "operator-runtime/controller". */
  Runnable,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { SERIES_WINDOW_MS } from "operator-runtime/client". */
  SERIES_WINDOW_MS,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { ServerError } from "operator-runtime/client". */
  ServerError,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { SERVING_ANNOTATION } from "operator-runtime/sharding". */
  SERVING_ANNOTATION,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { setControllerReference } from "operator-runtime/controller". */
  setControllerReference,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { SHARD_BUCKET_LABEL } from "operator-runtime/sharding". */
  SHARD_BUCKET_LABEL,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { SHARD_BUCKETS } from "operator-runtime/sharding". */
  SHARD_BUCKETS,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { SHARD_FIELDS } from "operator-runtime/cache". */
  SHARD_FIELDS,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { SHARD_HASH_SPACE } from "operator-runtime/cache". */
  SHARD_HASH_SPACE,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { shardBucketLabels } from "operator-runtime/sharding". */
  shardBucketLabels,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { ShardBy } from "operator-runtime/cache". */
  ShardBy,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { ShardedInformer } from "operator-runtime/cache". */
  ShardedInformer,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ShardedInformerHost } from "operator-runtime/cache". */
  ShardedInformerHost,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ShardedInformerOptions } from "operator-runtime/cache". */
  ShardedInformerOptions,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ShardField } from "operator-runtime/cache". */
  ShardField,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ShardFiltering } from "operator-runtime/cache". */
  ShardFiltering,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ShardHandler } from "operator-runtime/sharding". */
  ShardHandler,
} from "./entries/sharding.ts";
export {
  /** @deprecated Since 0.2, import { shardHashOf } from "operator-runtime/cache". */
  shardHashOf,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { ShardInfo } from "operator-runtime/client". */
  ShardInfo,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { ShardingOptions } from "operator-runtime/sharding". */
  ShardingOptions,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2 it is `HashRange`: import { HashRange } from "operator-runtime/cache". */
  HashRange as ShardRange,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { ShardRouter } from "operator-runtime/sharding". */
  ShardRouter,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { ShardRouterOptions } from "operator-runtime/sharding". */
  ShardRouterOptions,
} from "./entries/sharding.ts";
export type {
  /** @deprecated Since 0.2, import { ShardSelector } from "operator-runtime/cache". */
  ShardSelector,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { shardSelectorMatcher } from "operator-runtime/cache". */
  shardSelectorMatcher,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { SharedInformer } from "operator-runtime/cache". */
  SharedInformer,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { SharedInformerOptions } from "operator-runtime/cache". */
  SharedInformerOptions,
} from "./entries/cache.ts";
export {
  /** @deprecated Since 0.2, import { shortHash } from "operator-runtime/builder". */
  shortHash,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { silentLogger } from "operator-runtime/client". */
  silentLogger,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { splitHashSpace } from "operator-runtime/cache". */
  splitHashSpace,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { StatusOf } from "operator-runtime/client". */
  StatusOf,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { StatusPatch } from "operator-runtime/client". */
  StatusPatch,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { StatusWriteResult } from "operator-runtime/client". */
  StatusWriteResult,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { stripManagedFields } from "operator-runtime/cache". */
  stripManagedFields,
} from "./entries/cache.ts";
export type {
  /** @deprecated Since 0.2, import { TerminalErrorOptions } from "operator-runtime/controller". */
  TerminalErrorOptions,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { TooManyRequestsError } from "operator-runtime/client". */
  TooManyRequestsError,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { Verb } from "operator-runtime/rbac". */
  Verb,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { VERBS } from "operator-runtime/rbac". */
  VERBS,
} from "./entries/rbac.ts";
export {
  /** @deprecated Since 0.2, import { WATCH_VERBS } from "operator-runtime/rbac". */
  WATCH_VERBS,
} from "./entries/rbac.ts";
export type {
  /** @deprecated Since 0.2, import { WatchOptions } from "operator-runtime/controller". */
  WatchOptions,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { WatchRole } from "operator-runtime/controller". */
  WatchRole,
} from "./entries/controller.ts";
export {
  /** @deprecated Since 0.2, import { withConfigHashes } from "operator-runtime/builder". */
  withConfigHashes,
} from "./entries/builder.ts";
export {
  /** @deprecated Since 0.2, import { WorkQueue } from "operator-runtime/controller". */
  WorkQueue,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { WorkQueueMetrics } from "operator-runtime/controller". */
  WorkQueueMetrics,
} from "./entries/controller.ts";
export type {
  /** @deprecated Since 0.2, import { WriteOptions } from "operator-runtime/client". */
  WriteOptions,
} from "./entries/client.ts";
export {
  /** @deprecated Since 0.2, import { WriteRefusedError } from "operator-runtime/client". */
  WriteRefusedError,
} from "./entries/client.ts";
export type {
  /** @deprecated Since 0.2, import { WriteStatusOptions } from "operator-runtime/client". */
  WriteStatusOptions,
} from "./entries/client.ts";
