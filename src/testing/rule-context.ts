/** What the kind rules (defaulting, validation, decoding) get from the write in progress. */
export interface RuleContext {
  now: Date;
  /** fieldValidation query parameter. */
  fieldValidation: "Ignore" | "Warn" | "Strict";
  /** Warnings to send back as `Warning: 299` headers. */
  warnings: string[];
  /** Allocates a Service clusterIP. */
  allocateClusterIP(): string;
  /** The write is a scheduler's binding: a Pod's unset `spec.nodeName` may be set. */
  binding?: boolean;
}
