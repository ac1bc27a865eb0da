/**
 * Webhook configuration defaults: admissionregistration/v1 `SetDefaults_ValidatingWebhook`,
 * `SetDefaults_MutatingWebhook`, `SetDefaults_Rule` and `SetDefaults_ServiceReference`.
 */
import type { KindDefaults, Obj } from "./types.ts";
import { itemsAt, objectAt, orDefault } from "./types.ts";

function webhookDefaults(hook: Obj, mutating: boolean): void {
  orDefault(hook, "failurePolicy", "Fail");
  orDefault(hook, "matchPolicy", "Equivalent");
  orDefault(hook, "namespaceSelector", {});
  orDefault(hook, "objectSelector", {});
  orDefault(hook, "timeoutSeconds", 10);
  if (mutating) orDefault(hook, "reinvocationPolicy", "Never");
  for (const rule of itemsAt(hook, "rules")) orDefault(rule, "scope", "*");
  const service = objectAt(objectAt(hook, "clientConfig"), "service");
  if (service) orDefault(service, "port", 443);
}

/** ValidatingWebhookConfiguration. */
export const validatingWebhookConfiguration: KindDefaults = {
  decode(obj) {
    for (const hook of itemsAt(obj, "webhooks")) webhookDefaults(hook, false);
  },
};

/** MutatingWebhookConfiguration. */
export const mutatingWebhookConfiguration: KindDefaults = {
  decode(obj) {
    for (const hook of itemsAt(obj, "webhooks")) webhookDefaults(hook, true);
  },
};
