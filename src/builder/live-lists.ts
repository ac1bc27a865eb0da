/**
 * How the Builder compares lists when the live copy comes from a lean cache (no
 * `metadata.managedFields`): with the list kinds learned from full objects of the same kind, and
 * with one read of the full object only when that comparison alone would lead to a write.
 */
import type { ResourceClient } from "../client/resource-client.ts";
import { clusterIdentity } from "../client/resource-client.ts";
import type { KubeObject, ObjectRef } from "../client/types.ts";
import { isSubset } from "./desired.ts";
import type { ListKind, ListKinds } from "./list-items.ts";
import { listKindsIn, listKindsOf, recordListKinds } from "./list-items.ts";
import type { SameScalar } from "./scalars.ts";

/**
 * List kinds per cluster (a client and the clients `withSignal` derives from it share them) and
 * `apiVersion/kind`, from every object with managedFields the Builder saw (reads from the API,
 * apply answers). A list's kind is the schema's, so every object of a kind agrees; the map holds
 * one entry per list path.
 */
const learned = new WeakMap<object, Map<string, Map<string, ListKind>>>();

function kindsOf(client: ResourceClient, obj: KubeObject): Map<string, ListKind> {
  const cluster = clusterIdentity(client);
  let byKind = learned.get(cluster);
  if (!byKind) learned.set(cluster, (byKind = new Map()));
  const key = `${obj.apiVersion ?? ""}/${obj.kind ?? ""}`;
  let kinds = byKind.get(key);
  if (!kinds) byKind.set(key, (kinds = new Map()));
  return kinds;
}

/** Whether `obj` lacks managedFields (a lean cached copy, or a server that records none). */
function lean(obj: KubeObject): boolean {
  return obj.metadata?.managedFields === undefined;
}

/**
 * The list kinds to compare `obj` with: its own managedFields' (remembered for its kind) when
 * it has them, else those learned from other objects of its kind through `client`.
 */
export function listKindsFor(client: ResourceClient, obj: KubeObject): ListKinds {
  if (!lean(obj)) {
    recordListKinds(obj, kindsOf(client, obj));
    return listKindsOf(obj);
  }
  return listKindsIn(kindsOf(client, obj));
}

/**
 * Whether `live` holds `desired` (see `isSubset`), and the copy that decided it.
 *
 * Expected flow: compare with `listKindsFor(live)`. When that says "changed" and `live` is a
 * lean copy, a list another manager added items to may only look changed (compared by
 * position for want of managedFields): read the object once from the API and decide with its
 * managedFields. That read replaces the write the stale answer would have cost, and teaches the
 * list kinds of the kind, so later objects of the kind need none.
 *
 * Guarantees: a live copy with managedFields, or one that compares equal, costs no request.
 * A failed read answers "changed" with the cached copy (the apply that follows decides).
 */
export async function compareWithLive(
  desired: KubeObject, live: KubeObject, same: SameScalar, ctx: { client: ResourceClient; ref: ObjectRef },
): Promise<{ unchanged: boolean; live: KubeObject }> {
  if (isSubset(desired, live, same, listKindsFor(ctx.client, live))) return { unchanged: true, live };
  if (!lean(live)) return { unchanged: false, live };
  let full: KubeObject | undefined;
  try {
    full = await ctx.client.reader().get(ctx.ref);
  } catch {
    return { unchanged: false, live };
  }
  if (!full || full.metadata?.uid !== live.metadata?.uid) return { unchanged: false, live };
  return { unchanged: isSubset(desired, full, same, listKindsFor(ctx.client, full)), live: full };
}
