/**
 * Kubernetes' CEL regex library: `<string>.find(<regex>)` and `<string>.findAll(<regex>[, n])`.
 *
 * Patterns are RE2 (as Go's `regexp`), parsed and compiled by `@bufbuild/re2` (the engine
 * `@bufbuild/cel` runs `matches` on), so an invalid pattern fails with Go's message. Match
 * positions come from a Pike VM over that compiled program: like Go's `regexp`, it runs in time
 * linear in the input (no backtracking, so `^(a+)+$` cannot stall LocalCluster) and picks the
 * leftmost match, preferring alternatives and repetitions in Perl's order.
 *
 * @module
 */
import { CelScalar, celMethod, listType } from "@bufbuild/cel";
import type { CelFunc } from "@bufbuild/cel";
import { RE2JS } from "@bufbuild/re2";

/** `@bufbuild/re2`'s compiled program (reached through `RE2JS#re2()`; its classes are not exported). */
type Prog = ReturnType<RE2JS["re2"]>["prog"];
type Inst = Prog["inst"][number];

/** The instruction opcodes, static fields of `@bufbuild/re2`'s (unexported) `Inst` class. */
interface InstOps {
  readonly ALT: number;
  readonly ALT_MATCH: number;
  readonly CAPTURE: number;
  readonly EMPTY_WIDTH: number;
  readonly FAIL: number;
  readonly MATCH: number;
  readonly NOP: number;
  readonly RUNE: number;
  readonly RUNE_ANY_NOT_NL: number;
}

const OPS: InstOps = (() => {
  const ctor = RE2JS.compile("a").re2().prog.inst[0]?.constructor as unknown as Partial<Record<keyof InstOps, unknown>> | undefined;
  const names: readonly (keyof InstOps)[] = ["ALT", "ALT_MATCH", "CAPTURE", "EMPTY_WIDTH", "FAIL", "MATCH", "NOP", "RUNE", "RUNE_ANY_NOT_NL"];
  for (const name of names) {
    if (typeof ctor?.[name] !== "number") {
      throw new Error(`LocalCluster's CEL regex library cannot read @bufbuild/re2's instruction opcode Inst.${name}: the installed @bufbuild/re2 is not the version it was written for (0.6.x)`);
    }
  }
  return ctor as unknown as InstOps;
})();

// Zero-width assertion bits of an EMPTY_WIDTH instruction's `arg` (Go's syntax.EmptyOp).
const BEGIN_LINE = 0x01;
const END_LINE = 0x02;
const BEGIN_TEXT = 0x04;
const END_TEXT = 0x08;
const WORD_BOUNDARY = 0x10;
const NO_WORD_BOUNDARY = 0x20;

/** Whether a UTF-16 code unit is an ASCII word character (`\b` is ASCII-only in RE2). */
function isWord(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** The zero-width assertions that hold at index `pos` of `s`. */
function contextAt(s: string, pos: number): number {
  // Only ASCII characters (newline, word characters) decide an assertion, so code units suffice.
  const before = pos > 0 ? s.charCodeAt(pos - 1) : -1;
  const after = pos < s.length ? s.charCodeAt(pos) : -1;
  let flags = 0;
  if (before < 0) flags |= BEGIN_TEXT | BEGIN_LINE;
  else if (before === 0x0a) flags |= BEGIN_LINE;
  if (after < 0) flags |= END_TEXT | END_LINE;
  else if (after === 0x0a) flags |= END_LINE;
  flags |= isWord(before) !== isWord(after) ? WORD_BOUNDARY : NO_WORD_BOUNDARY;
  return flags;
}

/** The threads of one step, in priority order, each at a distinct instruction. */
class ThreadQueue {
  readonly pcs: Int32Array;
  readonly starts: Int32Array;
  readonly seen: Uint8Array;
  length = 0;
  constructor(size: number) {
    this.pcs = new Int32Array(size);
    this.starts = new Int32Array(size);
    this.seen = new Uint8Array(size);
  }
  clear(): void {
    this.length = 0;
    this.seen.fill(0);
  }
}

/** A compiled pattern: its program and the scratch space a search reuses. */
interface Compiled {
  readonly insts: readonly Inst[];
  readonly start: number;
  readonly stack: number[];
  current: ThreadQueue;
  next: ThreadQueue;
}

/**
 * Adds the thread at `pc` (started at `start`) to `q`, following the empty transitions whose
 * assertions hold in `context`, depth first in priority order, as Go's `machine.add`.
 */
function addThread(re: Compiled, q: ThreadQueue, pc0: number, start: number, context: number): void {
  const { insts, stack } = re;
  stack.push(pc0);
  while (stack.length > 0) {
    const pc = stack.pop()!;
    if (q.seen[pc] === 1) continue;
    q.seen[pc] = 1;
    const inst = insts[pc]!;
    const op = inst.op;
    if (op === OPS.ALT || op === OPS.ALT_MATCH) stack.push(inst.arg, inst.out);
    else if (op === OPS.NOP || op === OPS.CAPTURE) stack.push(inst.out);
    else if (op === OPS.EMPTY_WIDTH) {
      if ((inst.arg & ~context) === 0) stack.push(inst.out);
    } else if (op === OPS.MATCH || (op >= OPS.RUNE && op <= OPS.RUNE_ANY_NOT_NL)) {
      q.pcs[q.length] = pc;
      q.starts[q.length] = start;
      q.length++;
    }
    // FAIL: the thread dies.
  }
}

/**
 * The leftmost-first match of `re` in `s` at or after index `from` (UTF-16 indexes, on code
 * point boundaries), as Go's `regexp` finds it; undefined when there is none. One pass over the
 * input, each step bounded by the program's size.
 */
function search(re: Compiled, s: string, from: number): [start: number, end: number] | undefined {
  let current = re.current;
  let next = re.next;
  current.clear();
  next.clear();
  let found: [number, number] | undefined;
  for (let pos = from; ; ) {
    if (found !== undefined && current.length === 0) break;
    if (found === undefined) addThread(re, current, re.start, pos, contextAt(s, pos));
    const rune = pos < s.length ? s.codePointAt(pos)! : -1;
    const width = rune < 0 ? 0 : rune > 0xffff ? 2 : 1;
    const nextContext = width > 0 ? contextAt(s, pos + width) : 0;
    for (let i = 0; i < current.length; i++) {
      const inst = re.insts[current.pcs[i]!]!;
      if (inst.op === OPS.MATCH) {
        // Leftmost-first: this thread outranks every later one in the queue; drop those.
        found = [current.starts[i]!, pos];
        break;
      }
      if (width > 0 && inst.matchRune(rune)) addThread(re, next, inst.out, current.starts[i]!, nextContext);
    }
    if (width === 0) break;
    pos += width;
    [current, next] = [next, current];
    next.clear();
  }
  return found;
}

const compiled = new Map<string, Compiled>();

/** The compiled RE2 pattern; throws Go's parse error (`error parsing regexp: …`) when invalid. */
function compile(pattern: string): Compiled {
  let re = compiled.get(pattern);
  if (re === undefined) {
    let prog: Prog;
    try {
      prog = RE2JS.compile(pattern).re2().prog;
    } catch (e) {
      throw new Error((e as Error).message);
    }
    const size = prog.inst.length;
    re = { insts: prog.inst, start: prog.start, stack: [], current: new ThreadQueue(size), next: new ThreadQueue(size) };
    if (compiled.size > 500) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/**
 * Go's `FindAllString(s, n)`: non-overlapping leftmost matches; an empty match right after
 * the previous match is skipped. `n < 0` means all. Linear in `s` per match (RE2 semantics,
 * no backtracking).
 *
 * @example
 * ```ts
 * import { findAll } from "./lib-regex.ts";
 * findAll("123 abc 456", "[0-9]+", -1); // ["123", "456"]
 * findAll(`${"a".repeat(64)}!`, "^(a+)+$", -1); // [] at once
 * ```
 */
export function findAll(s: string, pattern: string, n: number): string[] {
  const re = compile(pattern);
  const out: string[] = [];
  let pos = 0;
  let prevEnd = -1;
  while (pos <= s.length && (n < 0 || out.length < n)) {
    const m = search(re, s, pos);
    if (m === undefined) break;
    const [start, end] = m;
    if (!(end === start && start === prevEnd)) {
      out.push(s.slice(start, end));
      prevEnd = end;
    }
    pos = end > start ? end : start + (s.codePointAt(start)! > 0xffff ? 2 : 1);
  }
  return out;
}

const { STRING, INT } = CelScalar;

/**
 * The regex library.
 *
 * @example
 * ```ts
 * import { run } from "@bufbuild/cel";
 * import { REGEX_FUNCS } from "./lib-regex.ts";
 * run("'abc 123'.find('[0-9]+')", {}, { funcs: [...REGEX_FUNCS] }); // "123"
 * ```
 */
export const REGEX_FUNCS: readonly CelFunc[] = [
  celMethod("find", STRING, [STRING], STRING, function (pattern) {
    return findAll(this, pattern, 1)[0] ?? "";
  }),
  celMethod("findAll", STRING, [STRING], listType(STRING), function (pattern) {
    return findAll(this, pattern, -1);
  }),
  celMethod("findAll", STRING, [STRING, INT], listType(STRING), function (pattern, n) {
    return findAll(this, pattern, n < 0n ? -1 : Number(n));
  }),
];
