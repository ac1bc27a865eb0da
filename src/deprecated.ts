/**
 * Names the root entry exported before 0.2 that now live in a subpath entry or under a new
 * name, re-exported here for one minor release so upgrading gives deprecation warnings, not
 * broken imports. Each says where the name lives now; CHANGELOG.md has the same table. They
 * are removed in 0.3.
 * @module
 */
/** @deprecated Since 0.2, import { AlreadyExistsError } from "operator-runtime/client". */
export { AlreadyExistsError } from "./entries/client.ts";
/** @deprecated Since 0.2, import { AlreadyOwnedError } from "operator-runtime/controller". */
export { AlreadyOwnedError } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { and } from "operator-runtime/controller". */
export { and } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { apiErrorFor } from "operator-runtime/client". */
export { apiErrorFor } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ApiReader } from "operator-runtime/client". */
export { ApiReader } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ApiResource } from "operator-runtime/rbac". */
export type { ApiResource } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { assignBuckets } from "operator-runtime/sharding". */
export { assignBuckets } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { bucketLabelSelector } from "operator-runtime/sharding". */
export { bucketLabelSelector } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { bucketOfUid } from "operator-runtime/sharding". */
export { bucketOfUid } from "./entries/sharding.ts";
/** @deprecated Since 0.2 it is `TokenBucketRateLimiterOptions`: import { TokenBucketRateLimiterOptions } from "operator-runtime/controller". */
export type { TokenBucketRateLimiterOptions as BucketOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { bucketRange } from "operator-runtime/sharding". */
export { bucketRange } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { bucketRanges } from "operator-runtime/sharding". */
export { bucketRanges } from "./entries/sharding.ts";
/** @deprecated Since 0.2 it is `tokenBucketRateLimiter`: import { tokenBucketRateLimiter } from "operator-runtime/controller". */
export { tokenBucketRateLimiter as bucketRateLimiter } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { BUCKETS_ANNOTATION } from "operator-runtime/sharding". */
export { BUCKETS_ANNOTATION } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { BUILDER_VERBS } from "operator-runtime/rbac". */
export { BUILDER_VERBS } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { BuilderEventRecorder } from "operator-runtime/builder". */
export type { BuilderEventRecorder } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { Cache } from "operator-runtime/cache". */
export { Cache } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { CacheInformerOptions } from "operator-runtime/cache". */
export type { CacheInformerOptions } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { CacheOptions } from "operator-runtime/cache". */
export type { CacheOptions } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { CacheTransform } from "operator-runtime/cache". */
export type { CacheTransform } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { CacheTransformOption } from "operator-runtime/cache". */
export type { CacheTransformOption } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { canonicalJson } from "operator-runtime/builder". */
export { canonicalJson } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { CLAIMING_ANNOTATION } from "operator-runtime/sharding". */
export { CLAIMING_ANNOTATION } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { ClientRequestRecord } from "operator-runtime/client". */
export type { ClientRequestRecord } from "./entries/client.ts";
/** @deprecated Since 0.2, import { COMPONENT_LABEL } from "operator-runtime/builder". */
export { COMPONENT_LABEL } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { configDataHash } from "operator-runtime/builder". */
export { configDataHash } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { configHashEnvName } from "operator-runtime/builder". */
export { configHashEnvName } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { ConfigReference } from "operator-runtime/builder". */
export type { ConfigReference } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { configReferenceKey } from "operator-runtime/builder". */
export { configReferenceKey } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { Controller } from "operator-runtime/controller". */
export { Controller } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ControllerAccess } from "operator-runtime/rbac". */
export type { ControllerAccess } from "./entries/rbac.ts";
/** @deprecated Since 0.2 it is `ControllerRegistration`: import { ControllerRegistration } from "operator-runtime". */
export { ControllerRegistration as ControllerBuilder } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ControllerMetrics } from "operator-runtime/controller". */
export type { ControllerMetrics } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { controllerOf } from "operator-runtime/controller". */
export { controllerOf } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ControllerOptions } from "operator-runtime/controller". */
export type { ControllerOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { controllerRef } from "operator-runtime/controller". */
export { controllerRef } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ControllerSharding } from "operator-runtime/controller". */
export type { ControllerSharding } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { DEFAULT_EXPECTATIONS_TTL_MS } from "operator-runtime/controller". */
export { DEFAULT_EXPECTATIONS_TTL_MS } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { defaultControllerRateLimiter } from "operator-runtime/controller". */
export { defaultControllerRateLimiter } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { DeleteOptions } from "operator-runtime/client". */
export type { DeleteOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { DESIRED_HASH_ANNOTATION } from "operator-runtime/builder". */
export { DESIRED_HASH_ANNOTATION } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { DropReason } from "operator-runtime/client". */
export type { DropReason } from "./entries/client.ts";
/** @deprecated Since 0.2, import { escapeFieldValue } from "operator-runtime/cache". */
export { escapeFieldValue } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { EventInput } from "operator-runtime/client". */
export type { EventInput } from "./entries/client.ts";
/** @deprecated Since 0.2, import { EventRecorderEvents } from "operator-runtime/client". */
export type { EventRecorderEvents } from "./entries/client.ts";
/** @deprecated Since 0.2, import { EventRecorderOptions } from "operator-runtime/client". */
export type { EventRecorderOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { EventReference } from "operator-runtime/client". */
export type { EventReference } from "./entries/client.ts";
/** @deprecated Since 0.2, import { EventSeries } from "operator-runtime/client". */
export type { EventSeries } from "./entries/client.ts";
/** @deprecated Since 0.2, import { EventSink } from "operator-runtime/client". */
export type { EventSink } from "./entries/client.ts";
/** @deprecated Since 0.2, import { EventsV1Event } from "operator-runtime/client". */
export type { EventsV1Event } from "./entries/client.ts";
/** @deprecated Since 0.2, import { EventType } from "operator-runtime/client". */
export type { EventType } from "./entries/client.ts";
/** @deprecated Since 0.2, import { Expectations } from "operator-runtime/controller". */
export { Expectations } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ExpectationsOptions } from "operator-runtime/controller". */
export type { ExpectationsOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ExponentialFailureOptions } from "operator-runtime/controller". */
export type { ExponentialFailureOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { exponentialFailureRateLimiter } from "operator-runtime/controller". */
export { exponentialFailureRateLimiter } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { FieldOperator } from "operator-runtime/cache". */
export type { FieldOperator } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { FieldRequirement } from "operator-runtime/cache". */
export type { FieldRequirement } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { FieldSelector } from "operator-runtime/cache". */
export type { FieldSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { fieldSelectorMatcher } from "operator-runtime/cache". */
export { fieldSelectorMatcher } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { FinalizerClient } from "operator-runtime/controller". */
export type { FinalizerClient } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { findConfigReferences } from "operator-runtime/builder". */
export { findConfigReferences } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { fnv1a64 } from "operator-runtime/cache". */
export { fnv1a64 } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ForbiddenError } from "operator-runtime/client". */
export { ForbiddenError } from "./entries/client.ts";
/** @deprecated Since 0.2, import { formatShardSelector } from "operator-runtime/cache". */
export { formatShardSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { GoneError } from "operator-runtime/client". */
export { GoneError } from "./entries/client.ts";
/** @deprecated Since 0.2, import { hashObject } from "operator-runtime/builder". */
export { hashObject } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { HashRange } from "operator-runtime/cache". */
export type { HashRange } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { hasLabels } from "operator-runtime/controller". */
export { hasLabels } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { hasReadyCondition } from "operator-runtime/controller". */
export { hasReadyCondition } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { HealthServer } from "operator-runtime/controller". */
export { HealthServer } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { httpEventSink } from "operator-runtime/client". */
export { httpEventSink } from "./entries/client.ts";
/** @deprecated Since 0.2, import { HttpEventSink } from "operator-runtime/client". */
export type { HttpEventSink } from "./entries/client.ts";
/** @deprecated Since 0.2, import { HttpEventSinkOptions } from "operator-runtime/client". */
export type { HttpEventSinkOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { IndexFunc } from "operator-runtime/cache". */
export type { IndexFunc } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { Informer } from "operator-runtime/cache". */
export type { Informer } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { InformerEventHandler } from "operator-runtime/cache". */
export type { InformerEventHandler } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { InformerSource } from "operator-runtime/controller". */
export type { InformerSource } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { injectConfigHashes } from "operator-runtime/builder". */
export { injectConfigHashes } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { Input } from "operator-runtime/client". */
export type { Input } from "./entries/client.ts";
/** @deprecated Since 0.2 it is `DesiredInventory`: import { DesiredInventory } from "operator-runtime/builder". */
export { DesiredInventory as InternalStore } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { InvalidError } from "operator-runtime/client". */
export { InvalidError } from "./entries/client.ts";
/** @deprecated Since 0.2, import { InvalidSelectorError } from "operator-runtime/cache". */
export { InvalidSelectorError } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { isTerminalError } from "operator-runtime/controller". */
export { isTerminalError } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { jsonLineSink } from "operator-runtime/client". */
export { jsonLineSink } from "./entries/client.ts";
/** @deprecated Since 0.2, import { jsonSink } from "operator-runtime/client". */
export { jsonSink } from "./entries/client.ts";
/** @deprecated Since 0.2, import { keyOf } from "operator-runtime/controller". */
export { keyOf } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { KindAccess } from "operator-runtime/rbac". */
export type { KindAccess } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { kindFromModel } from "operator-runtime/client". */
export { kindFromModel } from "./entries/client.ts";
/** @deprecated Since 0.2, import { KindRef } from "operator-runtime/client". */
export type { KindRef } from "./entries/client.ts";
/** @deprecated Since 0.2, import { KindUse } from "operator-runtime/rbac". */
export type { KindUse } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { KubeStatus } from "operator-runtime/client". */
export type { KubeStatus } from "./entries/client.ts";
/** @deprecated Since 0.2, import { LabelOperator } from "operator-runtime/cache". */
export type { LabelOperator } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { LabelRequirement } from "operator-runtime/cache". */
export type { LabelRequirement } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { labelsChanged } from "operator-runtime/controller". */
export { labelsChanged } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { LabelSelector } from "operator-runtime/cache". */
export type { LabelSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { labelSelectorFromObject } from "operator-runtime/cache". */
export { labelSelectorFromObject } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { labelSelectorMatcher } from "operator-runtime/cache". */
export { labelSelectorMatcher } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { LabelSelectorObject } from "operator-runtime/cache". */
export type { LabelSelectorObject } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { LabelSelectorRequirementObject } from "operator-runtime/cache". */
export type { LabelSelectorRequirementObject } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { LeaderElectionOptions } from "operator-runtime/controller". */
export type { LeaderElectionOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { LeaderElector } from "operator-runtime/controller". */
export { LeaderElector } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { LEAVING_ANNOTATION } from "operator-runtime/sharding". */
export { LEAVING_ANNOTATION } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { ListCallOptions } from "operator-runtime/client". */
export type { ListCallOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ListOptions } from "operator-runtime/client". */
export type { ListOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ListPage } from "operator-runtime/client". */
export type { ListPage } from "./entries/client.ts";
/** @deprecated Since 0.2, import { LoggerOptions } from "operator-runtime/client". */
export type { LoggerOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { LogLevel } from "operator-runtime/client". */
export type { LogLevel } from "./entries/client.ts";
/** @deprecated Since 0.2, import { LogRecord } from "operator-runtime/client". */
export type { LogRecord } from "./entries/client.ts";
/** @deprecated Since 0.2, import { LogSink } from "operator-runtime/client". */
export type { LogSink } from "./entries/client.ts";
/** @deprecated Since 0.2, import { MANAGED_BY_LABEL } from "operator-runtime/builder". */
export { MANAGED_BY_LABEL } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { MapFunc } from "operator-runtime/controller". */
export type { MapFunc } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { maxOfRateLimiters } from "operator-runtime/controller". */
export { maxOfRateLimiters } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { memberLeaseName } from "operator-runtime/sharding". */
export { memberLeaseName } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { Metrics } from "operator-runtime/controller". */
export { Metrics } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { MetricsProvider } from "operator-runtime/controller". */
export type { MetricsProvider } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ModelObject } from "operator-runtime/client". */
export type { ModelObject } from "./entries/client.ts";
/** @deprecated Since 0.2, import { normalizeShardSelector } from "operator-runtime/cache". */
export { normalizeShardSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ObjectInput } from "operator-runtime/client". */
export type { ObjectInput } from "./entries/client.ts";
/** @deprecated Since 0.2, import { objectKey } from "operator-runtime/cache". */
export { objectKey } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ObjectReader } from "operator-runtime/client". */
export type { ObjectReader } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ObjectRef } from "operator-runtime/client". */
export type { ObjectRef } from "./entries/client.ts";
/** @deprecated Since 0.2, import { or } from "operator-runtime/controller". */
export { or } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { OWNER_UID_INDEX } from "operator-runtime/cache". */
export { OWNER_UID_INDEX } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { OWNER_UID_LABEL } from "operator-runtime/builder". */
export { OWNER_UID_LABEL } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { OwnerIndexedReader } from "operator-runtime/client". */
export type { OwnerIndexedReader } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ownerRequests } from "operator-runtime/controller". */
export { ownerRequests } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { parseFieldSelector } from "operator-runtime/cache". */
export { parseFieldSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { parseLabelSelector } from "operator-runtime/cache". */
export { parseLabelSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { parseShardSelector } from "operator-runtime/cache". */
export { parseShardSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { PatchType } from "operator-runtime/client". */
export type { PatchType } from "./entries/client.ts";
/** @deprecated Since 0.2, import { PendingExpectations } from "operator-runtime/controller". */
export type { PendingExpectations } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { Plain } from "operator-runtime/client". */
export type { Plain } from "./entries/client.ts";
/** @deprecated Since 0.2, import { PolicyRule } from "operator-runtime/rbac". */
export type { PolicyRule } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { prune } from "operator-runtime/builder". */
export { prune } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { PruneOptions } from "operator-runtime/builder". */
export type { PruneOptions } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { RateLimiter } from "operator-runtime/controller". */
export type { RateLimiter } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { RbacManifestOptions } from "operator-runtime/rbac". */
export type { RbacManifestOptions } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { rbacManifests } from "operator-runtime/rbac". */
export { rbacManifests } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { rbacRules } from "operator-runtime/rbac". */
export { rbacRules } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { RbacRules } from "operator-runtime/rbac". */
export type { RbacRules } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { RbacSource } from "operator-runtime/rbac". */
export type { RbacSource } from "./entries/rbac.ts";
/** @deprecated Since 0.2 it is `Action`: import { Action } from "operator-runtime". */
export type { Action as ReconcileAction } from "./entries/controller.ts";
/** @deprecated Since 0.2 it is `BuilderResult`: import { BuilderResult } from "operator-runtime". */
export type { BuilderResult as ReconcileResult } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { RecordedEvent } from "operator-runtime/client". */
export type { RecordedEvent } from "./entries/client.ts";
/** @deprecated Since 0.2, import { REDACTED } from "operator-runtime/client". */
export { REDACTED } from "./entries/client.ts";
/** @deprecated Since 0.2, import { Reflector } from "operator-runtime/cache". */
export { Reflector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ReflectorOptions } from "operator-runtime/cache". */
export type { ReflectorOptions } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ReflectorSink } from "operator-runtime/cache". */
export type { ReflectorSink } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ReflectorStats } from "operator-runtime/cache". */
export type { ReflectorStats } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ReflectorTimings } from "operator-runtime/cache". */
export type { ReflectorTimings } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { rendezvousScore } from "operator-runtime/sharding". */
export { rendezvousScore } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { REPLICA_SET_LABEL } from "operator-runtime/controller". */
export { REPLICA_SET_LABEL } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { replicaDeletionOrder } from "operator-runtime/controller". */
export { replicaDeletionOrder } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ReplicaSetInput } from "operator-runtime/controller". */
export type { ReplicaSetInput } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ReplicaSetReconciler } from "operator-runtime/controller". */
export { ReplicaSetReconciler } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ReplicaSetReconcilerOptions } from "operator-runtime/controller". */
export type { ReplicaSetReconcilerOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ReplicaSetResult } from "operator-runtime/controller". */
export type { ReplicaSetResult } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { ReplicaTemplate } from "operator-runtime/controller". */
export type { ReplicaTemplate } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { RequestCounter } from "operator-runtime/client". */
export { RequestCounter } from "./entries/client.ts";
/** @deprecated Since 0.2, import { RequestFilter } from "operator-runtime/client". */
export type { RequestFilter } from "./entries/client.ts";
/** @deprecated Since 0.2, import { requestFor } from "operator-runtime/controller". */
export { requestFor } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { RequestLog } from "operator-runtime/client". */
export type { RequestLog } from "./entries/client.ts";
/** @deprecated Since 0.2, import { requestOf } from "operator-runtime/controller". */
export { requestOf } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { RequestOptions } from "operator-runtime/client". */
export type { RequestOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { RequestRecord } from "operator-runtime/client". */
export type { RequestRecord } from "./entries/client.ts";
/** @deprecated Since 0.2, import { RequestVerb } from "operator-runtime/client". */
export type { RequestVerb } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ResourceInfo } from "operator-runtime/client". */
export type { ResourceInfo } from "./entries/client.ts";
/** @deprecated Since 0.2, import { resourceResolver } from "operator-runtime/rbac". */
export { resourceResolver } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { resourceVersionChanged } from "operator-runtime/controller". */
export { resourceVersionChanged } from "./entries/controller.ts";
/** @deprecated Since 0.2 it is `Action`: import { Action } from "operator-runtime". */
export { Action as Result } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { RETAINED_BY_ANNOTATION } from "operator-runtime/builder". */
export { RETAINED_BY_ANNOTATION } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { RING_LABEL } from "operator-runtime/sharding". */
export { RING_LABEL } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { RingLostReason } from "operator-runtime/sharding". */
export type { RingLostReason } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { RingMembership } from "operator-runtime/sharding". */
export { RingMembership } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { RingMembershipOptions } from "operator-runtime/sharding". */
export type { RingMembershipOptions } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { Runnable } from "operator-runtime/controller". */
export type { Runnable } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { SERIES_WINDOW_MS } from "operator-runtime/client". */
export { SERIES_WINDOW_MS } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ServerError } from "operator-runtime/client". */
export { ServerError } from "./entries/client.ts";
/** @deprecated Since 0.2, import { SERVING_ANNOTATION } from "operator-runtime/sharding". */
export { SERVING_ANNOTATION } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { setControllerReference } from "operator-runtime/controller". */
export { setControllerReference } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { SHARD_BUCKET_LABEL } from "operator-runtime/sharding". */
export { SHARD_BUCKET_LABEL } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { SHARD_BUCKETS } from "operator-runtime/sharding". */
export { SHARD_BUCKETS } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { SHARD_FIELDS } from "operator-runtime/cache". */
export { SHARD_FIELDS } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { SHARD_HASH_SPACE } from "operator-runtime/cache". */
export { SHARD_HASH_SPACE } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { shardBucketLabels } from "operator-runtime/sharding". */
export { shardBucketLabels } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { ShardBy } from "operator-runtime/cache". */
export type { ShardBy } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardedInformer } from "operator-runtime/cache". */
export { ShardedInformer } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardedInformerHost } from "operator-runtime/cache". */
export type { ShardedInformerHost } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardedInformerOptions } from "operator-runtime/cache". */
export type { ShardedInformerOptions } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardField } from "operator-runtime/cache". */
export type { ShardField } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardFiltering } from "operator-runtime/cache". */
export type { ShardFiltering } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardHandler } from "operator-runtime/sharding". */
export type { ShardHandler } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { shardHashOf } from "operator-runtime/cache". */
export { shardHashOf } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardInfo } from "operator-runtime/client". */
export type { ShardInfo } from "./entries/client.ts";
/** @deprecated Since 0.2, import { ShardingOptions } from "operator-runtime/sharding". */
export type { ShardingOptions } from "./entries/sharding.ts";
/** @deprecated Since 0.2 it is `HashRange`: import { HashRange } from "operator-runtime/cache". */
export type { HashRange as ShardRange } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { ShardRouter } from "operator-runtime/sharding". */
export { ShardRouter } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { ShardRouterOptions } from "operator-runtime/sharding". */
export type { ShardRouterOptions } from "./entries/sharding.ts";
/** @deprecated Since 0.2, import { ShardSelector } from "operator-runtime/cache". */
export type { ShardSelector } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { shardSelectorMatcher } from "operator-runtime/cache". */
export { shardSelectorMatcher } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { SharedInformer } from "operator-runtime/cache". */
export { SharedInformer } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { SharedInformerOptions } from "operator-runtime/cache". */
export type { SharedInformerOptions } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { shortHash } from "operator-runtime/builder". */
export { shortHash } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { silentLogger } from "operator-runtime/client". */
export { silentLogger } from "./entries/client.ts";
/** @deprecated Since 0.2, import { splitHashSpace } from "operator-runtime/cache". */
export { splitHashSpace } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { StatusOf } from "operator-runtime/client". */
export type { StatusOf } from "./entries/client.ts";
/** @deprecated Since 0.2, import { StatusPatch } from "operator-runtime/client". */
export type { StatusPatch } from "./entries/client.ts";
/** @deprecated Since 0.2, import { StatusWriteResult } from "operator-runtime/client". */
export type { StatusWriteResult } from "./entries/client.ts";
/** @deprecated Since 0.2, import { stripManagedFields } from "operator-runtime/cache". */
export { stripManagedFields } from "./entries/cache.ts";
/** @deprecated Since 0.2, import { TerminalErrorOptions } from "operator-runtime/controller". */
export type { TerminalErrorOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { TooManyRequestsError } from "operator-runtime/client". */
export { TooManyRequestsError } from "./entries/client.ts";
/** @deprecated Since 0.2, import { Verb } from "operator-runtime/rbac". */
export type { Verb } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { VERBS } from "operator-runtime/rbac". */
export { VERBS } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { WATCH_VERBS } from "operator-runtime/rbac". */
export { WATCH_VERBS } from "./entries/rbac.ts";
/** @deprecated Since 0.2, import { WatchOptions } from "operator-runtime/controller". */
export type { WatchOptions } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { WatchRole } from "operator-runtime/controller". */
export type { WatchRole } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { withConfigHashes } from "operator-runtime/builder". */
export { withConfigHashes } from "./entries/builder.ts";
/** @deprecated Since 0.2, import { WorkQueue } from "operator-runtime/controller". */
export { WorkQueue } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { WorkQueueMetrics } from "operator-runtime/controller". */
export type { WorkQueueMetrics } from "./entries/controller.ts";
/** @deprecated Since 0.2, import { WriteOptions } from "operator-runtime/client". */
export type { WriteOptions } from "./entries/client.ts";
/** @deprecated Since 0.2, import { WriteRefusedError } from "operator-runtime/client". */
export { WriteRefusedError } from "./entries/client.ts";
/** @deprecated Since 0.2, import { WriteStatusOptions } from "operator-runtime/client". */
export type { WriteStatusOptions } from "./entries/client.ts";
