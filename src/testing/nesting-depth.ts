/**
 * The nesting limit of request bodies. Go's JSON decoder (and the YAML one kube-apiserver
 * converts through) stops at 10,000 levels of arrays and objects, so a deeper body is a decode
 * error (400) before any code walks it.
 *
 * LocalCluster stops earlier, at {@link LOCAL_MAX_NESTING_DEPTH}: JavaScript's own deep copies
 * and serializers (`structuredClone`, `JSON.stringify`) and the patch, apply and validation code
 * recurse, and overflow Node's default stack a little below 2,000 levels. A body between the two
 * limits is answered with the same 400 and a message naming LocalCluster's limit, rather than
 * a 500 or an object that could never be read back. Both measures here are iterative: a body
 * of millions of `[` cannot overflow the stack while being measured.
 */

/** Deepest nesting of arrays and objects kube-apiserver decodes (Go's `maxNestingDepth`). */
export const MAX_NESTING_DEPTH = 10_000;

/** Deepest nesting of arrays and objects LocalCluster decodes (see the module doc). */
export const LOCAL_MAX_NESTING_DEPTH = 1_000;

/**
 * The decoder's text for a body nested `depth` levels deep (at least one level past
 * {@link LOCAL_MAX_NESTING_DEPTH}); kube-apiserver's own words past its limit.
 */
export function depthError(depth: number): string {
  if (depth > MAX_NESTING_DEPTH) return "exceeded max depth";
  return `exceeded max depth: LocalCluster decodes at most ${LOCAL_MAX_NESTING_DEPTH} levels of nesting (kube-apiserver: ${MAX_NESTING_DEPTH})`;
}

/**
 * How deeply a JSON text nests arrays and objects, counted up to `stopAt` + 1 (the text is
 * not scanned further once past `stopAt`). Brackets inside strings do not count; the text need
 * not be valid JSON (the parser judges that afterwards).
 */
export function jsonNestingDepth(text: string, stopAt = MAX_NESTING_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > deepest) deepest = depth;
      if (deepest > stopAt) return deepest;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return deepest;
}

/**
 * True when a decoded value nests arrays and objects deeper than `limit` (for YAML bodies,
 * whose text cannot be measured by brackets). A value shared through YAML aliases is walked
 * again only when reached deeper than before, so aliases cannot make the walk explode.
 */
export function valueTooDeep(value: unknown, limit = LOCAL_MAX_NESTING_DEPTH): boolean {
  const seen = new Map<object, number>();
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > limit) return true;
    if ((seen.get(v) ?? -1) >= depth) continue;
    seen.set(v, depth);
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
