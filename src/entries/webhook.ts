/**
 * `operator-runtime/webhook`: admission and conversion webhooks. Register them on the Manager
 * (`mgr.webhook(Kind, { default, validate })`, `mgr.conversion(Kind, { hub, spokes })`); this
 * entry holds what handlers return ({@link allow}, {@link deny}), the contract types, the
 * round-trip test of a conversion ({@link checkRoundTrip}), the server itself
 * ({@link WebhookServer}) and the configurations that point an API server at it
 * ({@link webhookConfigurations}), plus the certificate helpers the server uses.
 *
 * @example
 * ```ts
 * import { allow, deny, checkRoundTrip } from "operator-runtime/webhook";
 *
 * mgr.webhook(Greeting, {
 *   validate: (g, old, ctx) => {
 *     if (!g.spec?.name === !g.spec?.surname) {
 *       return deny("set exactly one of spec.name and spec.surname", [{ field: "spec.name", message: "exactly one of name and surname" }], 422);
 *     }
 *     return ctx.operation === "UPDATE" && old?.spec?.name !== g.spec?.name ? allow(["renaming re-greets everyone"]) : allow();
 *   },
 * });
 * await mgr.start();
 * console.log(mgr.webhookServer?.url); // https://127.0.0.1:9443
 * ```
 * @module
 */
export type {
  AdmissionContext, AdmissionOperation, AdmissionRegistration, AdmissionRequest, AdmissionUserInfo, ConversionOptions,
  ConversionRegistration, FieldError, GroupVersionKind, GroupVersionResource, LabelSelectorShape, ValidationOutcome,
  VersionConverter, WebhookOptions,
} from "../webhook/types.ts";
export { allow, deny, handleAdmission, DEFAULT_TIMEOUT_SECONDS } from "../webhook/admission.ts";
export type { AdmissionResponse, AdmissionResult, AdmissionStatus, HandleAdmissionOptions } from "../webhook/admission.ts";
export { checkRoundTrip, checkConversionOptions, convertObject, conversionVersions, handleConversion } from "../webhook/conversion.ts";
export type { ConversionRequest, ConversionResponse, RoundTripOptions } from "../webhook/conversion.ts";
export { WebhookServer, defaultWebhookHost, DEFAULT_WEBHOOK_PORT, MAX_REVIEW_BYTES } from "../webhook/server.ts";
export type { CertificateReloadEvent, WebhookServerOptions } from "../webhook/server.ts";
export type { WebhookMetrics, WebhookOutcome, WebhookType } from "../webhook/metrics-hooks.ts";
export { admissionRegistrations, conversionRegistration, guessResource, webhookName, webhookPath } from "../webhook/registration.ts";
export { jsonPatch } from "../webhook/json-patch.ts";
export type { JsonPatchOperation } from "../webhook/json-patch.ts";
export { CONVERSION_PATH } from "../webhook/types.ts";
export { webhookConfigurations, WebhookConfigurationError, INJECT_CA_FROM, crdConversion, crdName, injectCaFrom, manifestProblems } from "../webhook/configurations.ts";
export type { WebhookConfigurationOptions, WebhookRegistrations, WebhookTarget, ManifestProblem } from "../webhook/configurations.ts";
export type { ManagerWebhookOptions } from "../manager/manager.ts";
export { generateCertificateAuthority, generateServingCertificate } from "../util/x509.ts";
export type { CertificateAuthorityOptions, CertificateKeyPair, ServingCertificateOptions } from "../util/x509.ts";
