/**
 * The DataApp defaulting webhook: defaults a CRD schema cannot express. A schema `default`
 * fills a missing field with a constant; this fills `spec.config["log.level"]` (an entry of a
 * free-form map, which schema defaults cannot reach) and labels the DataApp with the image's
 * tag (a value derived from another field).
 */
import type { Manager } from "../../src/index.ts";
import type { WebhookOptions } from "../../src/entries/webhook.ts";
import { DataApp } from "./dataapp.ts";

/** The label the webhook sets from `spec.image`'s tag (`latest` when the image names none). */
export const IMAGE_TAG_LABEL = "example.com/image-tag";

/** The tag of an image reference: `nginx:1.27` → `1.27`; `nginx`, `nginx@sha256:…` → `latest` / `digest`. */
export function imageTag(image: string): string {
  if (image.includes("@")) return "digest";
  const slash = image.lastIndexOf("/");
  const colon = image.lastIndexOf(":");
  return colon > slash ? image.slice(colon + 1) : "latest";
}

/** The webhook's handlers: default on CREATE and UPDATE. */
export const dataAppWebhook: WebhookOptions<DataApp> = {
  default: (app) => {
    app.spec.config = { "log.level": "info", ...app.spec.config };
    if (typeof app.spec.image === "string") {
      app.metadata = { ...app.metadata, labels: { ...app.metadata?.labels, [IMAGE_TAG_LABEL]: imageTag(app.spec.image) } };
    }
    return app;
  },
};

/** Serves the DataApp defaulting webhook from `mgr`. */
export function registerDataAppWebhook(mgr: Manager): void {
  mgr.webhook(DataApp, dataAppWebhook);
}
