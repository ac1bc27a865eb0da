/**
 * Reads the syntax of a KEP-5866 shard selector: the small part of CEL that kube-apiserver
 * accepts in `?shardSelector=` — `shardRange(<field path>, '<hex>', '<hex>')` calls joined by
 * `||`, with optional parentheses and whitespace. Only the shape is checked here (which
 * function, how many arguments, a field path then two string literals); what the field and the
 * bounds may be is checked by `parseShardSelector` (`shard-range.ts`).
 *
 * @module
 */
import { InvalidSelectorError } from "./selector-error.ts";

/**
 * One `shardRange(…)` call as written: the dotted field path and the two string literals' contents.
 *
 * @example
 * ```ts
 * const call: ShardRangeCall = { field: "object.metadata.uid", start: "0x0000000000000000", end: "0x8000000000000000" };
 * ```
 */
export interface ShardRangeCall {
  readonly field: string;
  readonly start: string;
  readonly end: string;
}

interface Token {
  readonly kind: "ident" | "string" | "punct" | "other" | "end";
  readonly text: string;
  /** 1-based column of the token's first character. */
  readonly column: number;
  /** For strings: the characters between the quotes. */
  readonly value?: string;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r", "\f"]);
const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;

/** Splits the text into CEL tokens (only those a shard selector can use are told apart). */
function tokenize(text: string, fail: (problem: string) => never): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const column = i + 1;
    if (WHITESPACE.has(c)) {
      i++;
    } else if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < text.length && IDENT_PART.test(text[j]!)) j++;
      tokens.push({ kind: "ident", text: text.slice(i, j), column });
      i = j;
    } else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) fail(`CEL parse error: Syntax error: unterminated string literal at column ${column}`);
      tokens.push({ kind: "string", text: text.slice(i, close + 1), value: text.slice(i + 1, close), column });
      i = close + 1;
    } else if (c === "|" || c === "&") {
      if (text[i + 1] !== c) fail(`CEL parse error: Syntax error: token recognition error at: '${c}' (column ${column})`);
      tokens.push({ kind: "punct", text: c + c, column });
      i += 2;
    } else if ("(),.".includes(c)) {
      tokens.push({ kind: "punct", text: c, column });
      i++;
    } else {
      // A number, an operator, anything else: one token up to the next separator.
      let j = i + 1;
      if (/[0-9]/.test(c)) while (j < text.length && /[0-9A-Za-z.]/.test(text[j]!)) j++;
      tokens.push({ kind: "other", text: text.slice(i, j), column });
      i = j;
    }
  }
  tokens.push({ kind: "end", text: "end of input", column: text.length + 1 });
  return tokens;
}

/**
 * The `shardRange` calls of a shard selector, in order.
 *
 * @throws {InvalidSelectorError} (`selectorType` `"shard"`) for an empty selector, a syntax
 *   error, a function other than `shardRange`, an operator other than `||`, or a call whose
 *   arguments are not a field path and two string literals.
 * @example
 * ```ts
 * readShardRangeCalls("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
 * // [{ field: "object.metadata.uid", start: "0x0000000000000000", end: "0x8000000000000000" }]
 * ```
 */
export function readShardRangeCalls(text: string): ShardRangeCall[] {
  const fail = (problem: string): never => {
    throw new InvalidSelectorError("shard", text, problem);
  };
  if (text.trim() === "") fail("empty shard selector is not allowed; omit the parameter for unfiltered lists");
  const tokens = tokenize(text, fail);
  let at = 0;
  const peek = () => tokens[at]!;
  const next = () => tokens[at++]!;
  const unexpected = (t: Token): never =>
    fail(t.kind === "end"
      ? `CEL parse error: Syntax error: unexpected end of input (column ${t.column})`
      : `CEL parse error: Syntax error: unexpected '${t.text}' at column ${t.column}`);

  /** `ident ( "." ident )*` starting at the current token, or undefined. */
  const readPath = (): string | undefined => {
    if (peek().kind !== "ident") return undefined;
    const parts = [next().text];
    while (peek().text === "." && tokens[at + 1]?.kind === "ident") {
      at++;
      parts.push(next().text);
    }
    return parts.join(".");
  };

  /** The tokens of one call argument, up to the `,` or `)` that ends it at depth 0. */
  const readArgument = (): Token[] => {
    const arg: Token[] = [];
    let depth = 0;
    for (;;) {
      const t = peek();
      if (t.kind === "end") unexpected(t);
      if (depth === 0 && (t.text === "," || t.text === ")")) break;
      if (t.text === "(") depth++;
      if (t.text === ")") depth--;
      arg.push(next());
    }
    if (arg.length === 0) unexpected(peek());
    return arg;
  };

  const readCall = (): ShardRangeCall => {
    const start = peek();
    const name = readPath()!;
    if (peek().text !== "(") {
      return fail(`unexpected expression ${JSON.stringify(name)}; expected a shardRange() call or the || operator`);
    }
    if (name !== "shardRange") fail(`unsupported function ${JSON.stringify(name)}; only shardRange() and || are allowed`);
    next(); // (
    const args: Token[][] = [];
    if (peek().text !== ")") {
      args.push(readArgument());
      while (peek().text === ",") {
        next();
        args.push(readArgument());
      }
    }
    if (next().text !== ")") unexpected(tokens[at - 1]!);
    if (args.length !== 3) fail(`shardRange() requires exactly 3 arguments, got ${args.length} (column ${start.column})`);
    const [fieldArg, startArg, endArg] = args as [Token[], Token[], Token[]];
    const isPath = fieldArg.every((t, k) => (k % 2 === 0 ? t.kind === "ident" : t.text === ".")) && fieldArg.length % 2 === 1;
    if (!isPath) {
      fail(`shardRange() first argument: expected a field path (e.g. object.metadata.uid), got ${source(fieldArg)}`);
    }
    return { field: fieldArg.filter((t) => t.kind === "ident").map((t) => t.text).join("."), start: literal(startArg, "hexStart"), end: literal(endArg, "hexEnd") };
  };

  const literal = (arg: Token[], name: string): string => {
    if (arg.length !== 1 || arg[0]!.kind !== "string") {
      fail(`${name} must be a string literal (e.g. '0x0000000000000000'), got ${source(arg)}`);
    }
    return arg[0]!.value!;
  };

  /** `term ( "||" term )*` */
  const readOr = (): ShardRangeCall[] => {
    const calls = readTerm();
    while (peek().text === "||") {
      next();
      calls.push(...readTerm());
    }
    return calls;
  };

  /** `"(" or ")"` or a call. */
  const readTerm = (): ShardRangeCall[] => {
    const t = peek();
    if (t.text === "(") {
      next();
      const inner = readOr();
      if (peek().text !== ")") unexpected(peek());
      next();
      return inner;
    }
    if (t.kind === "ident") return [readCall()];
    return unexpected(t);
  };

  const calls = readOr();
  const rest = peek();
  if (rest.text === "&&") fail(`unsupported operator "&&" at column ${rest.column}; only shardRange() and || are allowed`);
  if (rest.kind !== "end") unexpected(rest);
  return calls;
}

/** The tokens of an argument as written (for messages). */
function source(arg: readonly Token[]): string {
  return arg.map((t) => t.text).join("");
}
