/**
 * Guards YAML request bodies against alias bombs ("billion laughs"): a few hundred bytes of
 * nested `&anchor`/`*alias` references that expand to millions of nodes.
 *
 * js-yaml hands every `*alias` back as the very object its anchor built, so parsing is cheap;
 * the cost comes later, in whatever walks the value as a tree (`JSON.stringify`, copies,
 * field-manager diffs). {@link yamlAliasProblem} measures that expanded size from the parsed
 * value in time proportional to the *unexpanded* document, before anything else walks it.
 *
 * The rule is go-yaml's (which kube-apiserver decodes YAML with, via sigs.k8s.io/yaml): a
 * document fails when more than 100 of its expanded nodes came from aliases, it has more than
 * 1,000 nodes, and the share of alias-made nodes exceeds an allowance that is 99 % up to
 * 400,000 nodes and falls linearly to 10 % at 4,000,000. Sensible anchors (a shared label
 * block, a repeated container spec) stay far below it; a bomb fails within its first few
 * thousand expanded nodes. Caveat: nodes are counted on the JavaScript value (a mapping key
 * and its value are one node each, an alias to a scalar counts as a plain scalar), so counts
 * are close to go-yaml's but not identical.
 */

const MIN_ALIAS_NODES = 100;
const MIN_NODES = 1_000;
const RATIO_RANGE_LOW = 400_000;
const RATIO_RANGE_HIGH = 4_000_000;

/** The share of nodes that may come from alias expansion in a document of `nodes` nodes. */
function allowedAliasRatio(nodes: number): number {
  if (nodes <= RATIO_RANGE_LOW) return 0.99;
  if (nodes >= RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (nodes - RATIO_RANGE_LOW)) / (RATIO_RANGE_HIGH - RATIO_RANGE_LOW);
}

/**
 * Why a parsed YAML value cannot be expanded into a tree, or undefined when it can: an alias
 * inside its own anchor's value (js-yaml builds a cycle; go-yaml refuses it), or excessive
 * aliasing by go-yaml's rule. The text follows go-yaml's errors (`yaml: …`).
 *
 * Walks each distinct object once (depth first, finding cycles as it goes): a repeated
 * reference (an alias) is charged its whole expanded size at once, which is exact for the rule
 * because a ratio that trips inside an expansion stays tripped at its end.
 *
 * @example
 * ```ts
 * import { load } from "js-yaml";
 * yamlAliasProblem(load("a: &a [1, 2]\nb: *a")); // → undefined
 * yamlAliasProblem(load("a: &a [*a]")); // → "yaml: an anchor's value contains an alias to itself"
 * ```
 */
export function yamlAliasProblem(value: unknown): string | undefined {
  const sizes = new Map<object, number>();
  const seen = new Set<object>();
  const open = new Set<object>();
  let nodes = 0;
  let aliasNodes = 0;
  let cycle = false;
  const tripped = (): boolean =>
    aliasNodes > MIN_ALIAS_NODES && nodes > MIN_NODES && aliasNodes / nodes > allowedAliasRatio(nodes);

  // Document order, the way a decoder meets the nodes. Returns true when it must stop.
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== "object") {
      nodes++;
      return tripped();
    }
    if (open.has(v)) return (cycle = true);
    if (seen.has(v)) {
      // Fully walked before, so acyclic: its size is finite.
      const size = expandedSize(v, sizes);
      nodes += size;
      aliasNodes += size;
      return tripped();
    }
    seen.add(v);
    open.add(v);
    nodes++;
    if (tripped()) return true;
    if (Array.isArray(v)) {
      for (const item of v) if (walk(item)) return true;
    } else {
      for (const [, item] of Object.entries(v)) {
        nodes++; // the key
        if (walk(item)) return true;
      }
    }
    open.delete(v);
    return false;
  };
  if (!walk(value)) return undefined;
  if (cycle) return "yaml: an anchor's value contains an alias to itself";
  return `yaml: document contains excessive aliasing (${nodes} nodes expanded, ${aliasNodes} of them from aliases)`;
}

/** Nodes in `v` expanded as a tree, memoized per object so shared parts are sized once. */
function expandedSize(v: object, sizes: Map<object, number>): number {
  const known = sizes.get(v);
  if (known !== undefined) return known;
  let size = 1;
  const add = (item: unknown): void => {
    size += item !== null && typeof item === "object" ? expandedSize(item, sizes) : 1;
  };
  if (Array.isArray(v)) {
    for (const item of v) add(item);
  } else {
    for (const [, item] of Object.entries(v)) {
      size++;
      add(item);
    }
  }
  sizes.set(v, size);
  return size;
}
