/**
 * A unified diff of two texts' lines, as kube-apiserver v1.36 appends to some `Forbidden`
 * update messages (a PersistentVolumeClaim's immutable spec): hunks of changed lines with
 * three lines of context, `@@ -a,b +c,d @@` headers, ` `/`-`/`+` line prefixes, no file header.
 *
 * @module
 */

type Edit = { op: " " | "-" | "+"; line: string };

/**
 * The unified diff of `before` and `after` (one element per line), `""` when they are equal.
 * Lines are matched by a longest common subsequence; texts are expected to be small (a few
 * hundred lines).
 *
 * @example
 * ```ts
 * unifiedDiff(["{", '  "A": 1', "}"], ["{", '  "A": 2', "}"]);
 * // → '@@ -1,3 +1,3 @@\n {\n-  "A": 1\n+  "A": 2\n }\n'
 * ```
 */
export function unifiedDiff(before: readonly string[], after: readonly string[], context = 3): string {
  const edits = lineEdits(before, after);
  if (edits.every((e) => e.op === " ")) return "";
  const changed = edits.flatMap((e, i) => (e.op === " " ? [] : [i]));
  // Group changes whose context windows touch into one hunk.
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const last = hunks.at(-1);
    if (last && i - last[1] <= 2 * context) last[1] = i;
    else hunks.push([i, i]);
  }
  let out = "";
  for (const [first, lastChange] of hunks) {
    const start = Math.max(0, first - context);
    const end = Math.min(edits.length - 1, lastChange + context);
    // Line numbers (1-based) of the hunk's first line on each side.
    let oldLine = 1;
    let newLine = 1;
    for (let i = 0; i < start; i++) {
      if (edits[i]!.op !== "+") oldLine++;
      if (edits[i]!.op !== "-") newLine++;
    }
    const slice = edits.slice(start, end + 1);
    const oldCount = slice.filter((e) => e.op !== "+").length;
    const newCount = slice.filter((e) => e.op !== "-").length;
    out += `@@ -${oldCount ? oldLine : oldLine - 1},${oldCount} +${newCount ? newLine : newLine - 1},${newCount} @@\n`;
    for (const e of slice) out += `${e.op}${e.line}\n`;
  }
  return out;
}

/** Line edits turning `a` into `b`: removals before insertions within each changed run. */
function lineEdits(a: readonly string[], b: readonly string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      edits.push({ op: " ", line: a[i++]! });
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      edits.push({ op: "-", line: a[i++]! });
    } else {
      edits.push({ op: "+", line: b[j++]! });
    }
  }
  return edits;
}
