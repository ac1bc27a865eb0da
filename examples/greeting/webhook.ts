/**
 * The Greeting validating webhook: the CRD's CEL rule ("exactly one of name and surname",
 * crds/greeting.yaml) written once more as a webhook, for clusters where the rule is not
 * enough — here it also warns when a family greeting names a surname nobody in the namespace
 * has yet, which CEL cannot know (a rule sees one object; a webhook can read the Manager's
 * cache).
 *
 * The API server evaluates CEL rules before it calls validating webhooks, so with the rule in
 * the CRD this webhook only ever sees valid specs; without it (an older CRD), it is what rejects.
 */
import type { Manager } from "../../src/index.ts";
import { allow, deny } from "../../src/entries/webhook.ts";
import type { ValidationOutcome, WebhookOptions } from "../../src/entries/webhook.ts";
import { Greeting, Person } from "./kinds.ts";
import { greetingProblem } from "./operator.ts";

/**
 * The webhook's handlers. `peopleOf(namespace)` lists the People of a namespace (the
 * Manager's cache); without it the surname warning is skipped.
 */
export function greetingWebhook(peopleOf?: (namespace: string) => readonly Person[]): WebhookOptions<Greeting> {
  return {
    validate: (greeting, _old, ctx): ValidationOutcome => {
      const problem = greetingProblem(greeting.spec);
      if (problem !== undefined) return deny(problem.message, [{ field: "spec", message: problem.message }], 422);
      const surname = greeting.spec?.surname;
      if (surname !== undefined && peopleOf !== undefined && !peopleOf(ctx.namespace).some((p) => p.spec.surname === surname)) {
        return allow([`no Person of surname ${surname} in namespace ${ctx.namespace} yet: the greeting will say "Hello to the ${surname} family"`]);
      }
      return allow();
    },
  };
}

/** Serves the Greeting webhook from `mgr`, reading People from its cache. */
export function registerGreetingWebhook(mgr: Manager): void {
  const people = mgr.cache.informer(Person);
  mgr.webhook(Greeting, greetingWebhook((namespace) => people.list(namespace)));
}
