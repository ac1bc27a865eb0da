/**
 * What the webhook server reports to metrics; the Manager's `Metrics` implements it.
 *
 * @module
 */

/**
 * The type of a webhook: admission (`mutating`, `validating`) or `conversion`.
 *
 * @example
 * ```ts
 * const type: WebhookType = "validating";
 * ```
 */
export type WebhookType = "mutating" | "validating" | "conversion";

/**
 * How a request to a webhook ended: `allowed` (or converted), `denied` by the handler, or
 * `errored` (the handler threw or timed out, a conversion failed, or the request was malformed).
 *
 * @example
 * ```ts
 * const outcome: WebhookOutcome = "denied";
 * ```
 */
export type WebhookOutcome = "allowed" | "denied" | "errored";

/**
 * Metric hooks of the webhook server, one call per event; `webhook` is the request path
 * (`/validate-example-com-v1-greeting`), as controller-runtime labels its webhook metrics.
 *
 * @example
 * ```ts
 * const hooks: WebhookMetrics = {
 *   webhookRequest: (webhook, code, seconds) => console.log(webhook, code, seconds),
 *   webhookOutcome: (webhook, type, outcome) => console.log(webhook, type, outcome),
 *   webhookInFlight: (webhook, delta) => undefined,
 * };
 * ```
 */
export interface WebhookMetrics {
  /** One answered request: its HTTP status code and how long it took. */
  webhookRequest(webhook: string, code: number, seconds: number): void;
  /** How one well-formed review ended. */
  webhookOutcome(webhook: string, type: WebhookType, outcome: WebhookOutcome): void;
  /** A request started (+1) or ended (-1). */
  webhookInFlight(webhook: string, delta: 1 | -1): void;
}
