/**
 * Two typed custom kinds for the typed-kinds tests: Greeting (the primary, with a status) and
 * Card (a child a Greeting owns), their CRDs and an installer.
 */
import { defineKind } from "../../src/index.ts";
import type { KubeObject, ResourceClient } from "../../src/index.ts";
import type { ObjectOf } from "../../src/entries/client.ts";
import { waitFor } from "../support/wait.ts";

export interface GreetingSpec {
  name: string;
  /** Exclamation marks after the greeting. */
  excitement?: number;
}
export interface GreetingStatus {
  message?: string;
  observedGeneration?: number;
}

export const Greeting = defineKind<GreetingSpec, GreetingStatus>({ apiVersion: "example.com/v1", kind: "Greeting" });
export type Greeting = ObjectOf<typeof Greeting>;

export const Card = defineKind<{ text: string }>({ apiVersion: "example.com/v1", kind: "Card" });
export type Card = ObjectOf<typeof Card>;

function crd(kind: string, plural: string, spec: Record<string, unknown>, status: boolean): KubeObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{
        name: "v1", served: true, storage: true, ...(status ? { subresources: { status: {} } } : {}),
        schema: { openAPIV3Schema: { type: "object", properties: {
          spec,
          ...(status ? { status: { type: "object", "x-kubernetes-preserve-unknown-fields": true } } : {}),
        } } },
      }],
    },
  };
}

/** The Greeting CRD: `spec.name` required, a status subresource. */
export const greetingCrd = crd("Greeting", "greetings", {
  type: "object", required: ["name"], properties: { name: { type: "string" }, excitement: { type: "integer" } },
}, true);

/** The Card CRD: `spec.text`, no status. */
export const cardCrd = crd("Card", "cards", { type: "object", properties: { text: { type: "string" } } }, false);

/** Creates the Greeting and Card CRDs and waits until the client can list both kinds. */
export async function installKinds(client: ResourceClient): Promise<void> {
  await client.create(greetingCrd);
  await client.create(cardCrd);
  await waitFor(async () => (await client.list(Greeting)) && (await client.list(Card)), "Greeting and Card served");
}
