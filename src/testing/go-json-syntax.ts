/**
 * The syntax error Go's `encoding/json` reports for bytes that are not one JSON value, word for
 * word (`invalid character 'x' looking for beginning of value`, `unexpected end of JSON
 * input`, …): kube-apiserver passes such errors on in its messages (e.g. a bad continue token).
 * Go checks the whole input before decoding, so this error comes before any type error.
 *
 * @module
 */

/** Go's `quoteChar`: a byte as Go's JSON scanner names it in its errors (`'\u0081'`, `'a'`). */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const escapes: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 0x5c: "\\\\" };
  if (escapes[c] !== undefined) return `'${escapes[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, "0")}'`;
  // strconv.IsPrint: Latin-1 controls, NBSP and the soft hyphen are escaped, other letters kept.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, "0")}'`;
  return `'${String.fromCharCode(c)}'`;
}

class SyntaxFailure extends Error {}

/**
 * Told of each member of a top-level object as it is scanned: the byte ranges (start,
 * end exclusive) of its key (quotes included) and of its value.
 */
export type MemberListener = (key: [number, number], value: [number, number]) => void;

/** Go's `maxNestingDepth`. */
const MAX_DEPTH = 10000;

/**
 * The error `json.Unmarshal` gives for `data` that is not exactly one JSON value (whitespace
 * around it allowed), or undefined when the syntax is valid. `onMember` hears the members of
 * a top-level object (for decoding them without recursion; a member of an object that turns
 * out malformed later may have been heard).
 *
 * @example
 * ```ts
 * goJsonSyntaxError(Buffer.from("{\"a\" 1}")); // → "invalid character '1' after object key"
 * goJsonSyntaxError(Buffer.from("[1"));       // → "unexpected end of JSON input"
 * ```
 */
export function goJsonSyntaxError(data: Uint8Array, onMember?: MemberListener): string | undefined {
  let i = 0;
  let keyAt: [number, number] = [0, 0];
  let valueAt = 0;
  /** Whether values read now are members of a top-level object. */
  const inTopObject = (open: number[]) => open.length === 1 && open[0] === 0x7b;
  const fail = (context: string): never => {
    throw new SyntaxFailure(i >= data.length ? "unexpected end of JSON input" : `invalid character ${goQuoteChar(data[i]!)} ${context}`);
  };
  const ws = () => {
    while (i < data.length && (data[i] === 0x20 || data[i] === 0x09 || data[i] === 0x0a || data[i] === 0x0d)) i++;
  };
  const digits = () => {
    while (i < data.length && data[i]! >= 0x30 && data[i]! <= 0x39) i++;
  };
  const isDigit = () => i < data.length && data[i]! >= 0x30 && data[i]! <= 0x39;
  const isHex = () => i < data.length && /[0-9a-fA-F]/.test(String.fromCharCode(data[i]!));
  const string = () => {
    i++;
    for (;;) {
      if (i >= data.length) fail("");
      const c = data[i]!;
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail("in string literal");
      if (c === 0x5c) {
        i++;
        if (i >= data.length) fail("");
        const e = data[i]!;
        if (e === 0x75) {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!isHex()) fail("in \\u hexadecimal character escape");
          continue;
        }
        if (!`"\\/bfnrt`.includes(String.fromCharCode(e))) fail("in string escape code");
      }
      i++;
    }
  };
  const number = () => {
    if (data[i] === 0x2d) {
      i++;
      if (!isDigit()) fail("in numeric literal");
    }
    if (data[i] === 0x30) i++;
    else digits();
    if (data[i] === 0x2e) {
      i++;
      if (!isDigit()) fail("after decimal point in numeric literal");
      digits();
    }
    if (data[i] === 0x65 || data[i] === 0x45) {
      i++;
      if (data[i] === 0x2b || data[i] === 0x2d) i++;
      if (!isDigit()) fail("in exponent of numeric literal");
      digits();
    }
  };
  const literal = (word: string) => {
    i++;
    for (const ch of word.slice(1)) {
      if (data[i] !== ch.charCodeAt(0)) fail(`in literal ${word} (expecting '${ch}')`);
      i++;
    }
  };
  const key = () => {
    if (data[i] !== 0x22) fail("looking for beginning of object key string");
    const from = i;
    string();
    keyAt = [from, i];
    ws();
    if (data[i] !== 0x3a) fail("after object key");
    i++;
  };
  /** Scans one value; containers by an explicit stack (Go nests at most 10000 deep). */
  const value = (): void => {
    const open: number[] = [];
    for (;;) {
      ws();
      if (i >= data.length) fail("");
      const c = data[i]!;
      if (inTopObject(open)) valueAt = i;
      if (c === 0x7b || c === 0x5b) {
        if (open.length >= MAX_DEPTH) fail("exceeded max depth");
        i++;
        ws();
        if (data[i] !== c + 2) {
          open.push(c);
          if (c === 0x7b) key();
          continue;
        }
        i++;
      } else if (c === 0x22) string();
      else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) number();
      else if (c === 0x74) literal("true");
      else if (c === 0x66) literal("false");
      else if (c === 0x6e) literal("null");
      else fail("looking for beginning of value");
      // After a value: close containers, or go on after a comma.
      if (inTopObject(open)) onMember?.(keyAt, [valueAt, i]);
      for (;;) {
        ws();
        const container = open[open.length - 1];
        if (container === undefined) return;
        if (data[i] === container + 2) {
          i++;
          open.pop();
          if (inTopObject(open)) onMember?.(keyAt, [valueAt, i]);
          continue;
        }
        if (data[i] !== 0x2c) fail(container === 0x7b ? "after object key:value pair" : "after array element");
        i++;
        if (container === 0x7b) {
          ws();
          key();
        }
        break;
      }
    }
  };
  try {
    value();
    ws();
    if (i < data.length) fail("after top-level value");
    return undefined;
  } catch (err) {
    if (err instanceof SyntaxFailure) return err.message;
    throw err;
  }
}
