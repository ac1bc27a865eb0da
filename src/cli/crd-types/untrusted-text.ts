/**
 * Text from a CRD (or a file name) made safe for where `gen types` puts it: a TSDoc comment, a
 * `//` line comment, a string literal in generated code, a one-line message on stderr. A CRD
 * is untrusted data: nothing in it may end a comment or a string, start a new line of code, or
 * send control sequences to a terminal.
 */

/** The characters JavaScript ends a line at. */
const LINE_TERMINATORS = /\r\n|[\n\r\u2028\u2029]/g;

/** C0 and C1 control characters, DEL, and the two Unicode line terminators. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** `\uXXXX` for one UTF-16 code unit. */
const unicodeEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Text for the inside of a `/** … *\/` comment: every line terminator (`\r\n`, `\r`, U+2028,
 * U+2029) becomes `\n`, so the comment's lines are the text's lines, and every `*` followed by
 * `/` gets a backslash between them, so the text cannot end the comment.
 *
 * @example
 * ```ts
 * commentText("one\r\ntwo"); // "one\ntwo"
 * commentText(`ends *${"/"} here`); // the same text with a backslash between "*" and "/"
 * ```
 */
export function commentText(text: string): string {
  return text.replace(LINE_TERMINATORS, "\n").replaceAll("*/", "*\\/");
}

/**
 * Text on one line, with every control character and line terminator written as a `\uXXXX`
 * escape: for a `//` comment (which a line terminator would end) and for messages on stderr
 * (where an escape sequence would drive the terminal).
 *
 * @example
 * ```ts
 * printable("crd\n.yaml"); // "crd\\u000a.yaml"
 * ```
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, unicodeEscape);
}

/**
 * A JSON string literal of `text` that is also one printable line: as `JSON.stringify`, and
 * U+2028, U+2029, DEL and the C1 controls escaped too. Valid as a TypeScript string literal
 * and for a value quoted in a message.
 *
 * @example
 * ```ts
 * quoted('a"b\u2028'); // '"a\\"b\\u2028"'
 * ```
 */
export function quoted(text: string): string {
  return printable(JSON.stringify(text));
}

/**
 * Generated TypeScript with every raw U+2028 and U+2029 written as its escape. They can only
 * stand in a string literal or a comment there (they are not identifier characters), where the
 * escape means the same character, or is plain text; tools older than ES2019 end a string at
 * them.
 *
 * @example
 * ```ts
 * escapeLineSeparators('type A = "a\u2028b";'); // 'type A = "a\\u2028b";'
 * ```
 */
export function escapeLineSeparators(code: string): string {
  return code.replace(/[\u2028\u2029]/g, unicodeEscape);
}
