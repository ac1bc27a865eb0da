/**
 * The README's TypeScript blocks as programs: every ```ts fence in README.md is a complete
 * program that the consumer test type-checks against the installed package and runs against a
 * fresh LocalCluster (through `KUBECONFIG`). An HTML comment on the line before a fence says how
 * the program ends when it does not end by itself:
 *
 *     <!-- readme-test: {"signalAfter": {"apiVersion": "v1", "kind": "ConfigMap", "namespace": "default", "name": "x"}} -->
 *
 * runs the program until that object exists, then sends SIGTERM and expects exit code 0.
 * `"setup"` names the objects created in the cluster before the program starts (see
 * `readme-setups.ts`: what the README says the program expects to find), and `"expect"` lists
 * objects that must exist once the program is done.
 */
import { readFileSync } from "node:fs";

/** An object the harness waits for. */
export interface ObjectKey {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** One README block. */
export interface ReadmeProgram {
  /** `readme-<line>.ts`: named after the fence's line, so a failure points at the README. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The heading the block sits under. */
  section: string;
  code: string;
  signalAfter?: ObjectKey;
  setup?: string;
  expect: ObjectKey[];
}

const DIRECTIVE = /^<!--\s*readme-test:\s*(\{.*\})\s*-->$/;

/** Reads every ```ts block of a README with its test directive. */
export function readmePrograms(readmePath: string): ReadmeProgram[] {
  const lines = readFileSync(readmePath, "utf8").split("\n");
  const programs: ReadmeProgram[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) section = line.replace(/^#+ /, "");
    if (!/^```ts\b/.test(line)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    if (i >= lines.length) throw new Error(`README.md:${start + 1}: unterminated code block`);
    const previous = lines.slice(0, start).reverse().find((l) => l.trim() !== "") ?? "";
    const directive = DIRECTIVE.exec(previous.trim());
    const options = directive ? (JSON.parse(directive[1]!) as { signalAfter?: ObjectKey; setup?: string; expect?: ObjectKey[] }) : {};
    programs.push({
      file: `readme-${start + 1}.ts`, line: start + 1, section, code: `${body.join("\n")}\n`,
      ...(options.signalAfter ? { signalAfter: options.signalAfter } : {}),
      ...(options.setup ? { setup: options.setup } : {}),
      expect: options.expect ?? [],
    });
  }
  return programs;
}
