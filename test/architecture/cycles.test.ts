/**
 * No import cycles in src/ and builders/: not between files (type-only imports count: a cycle
 * of types is still two files that cannot be read apart), and not between folders.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { importsOf } from "./imports.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join("/"));
}

/** The import graph of `files` (path → the repo paths it imports). */
function graphOf(files: readonly { path: string; source: string }[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const { path, source } of files) {
    graph.set(path, importsOf(source).filter((i) => i.specifier.startsWith(".")).map((i) => posix.normalize(posix.join(posix.dirname(path), i.specifier))));
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan): each is a cycle. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The folder a file belongs to for the folder graph: `src/cache`, `builders`, or the file itself at src/'s top. */
function folderOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "builders") return "builders";
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : path;
}

function folderGraph(files: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const t of targets) if (folderOf(t) !== from) graph.get(from)!.add(folderOf(t));
  }
  return new Map([...graph].map(([k, v]) => [k, [...v]]));
}

const sources = [...tsFiles("src"), ...tsFiles("builders")].map((path) => ({ path, source: readFileSync(join(ROOT, path), "utf8") }));

describe("import cycles", () => {
  it("no two files of src/ or builders/ import each other, directly or around a loop", () => {
    assert.ok(sources.length > 100);
    assert.deepEqual(cyclesOf(graphOf(sources)), []);
  });

  it("no two folders import each other, directly or around a loop", () => {
    assert.deepEqual(cyclesOf(folderGraph(graphOf(sources))), []);
  });

  it("finds a type-only cycle between files, and a cycle between folders", () => {
    const files = [
      { path: "src/builder/builder.ts", source: 'import type { BuilderOptions } from "./options.ts";' },
      { path: "src/builder/options.ts", source: 'import type { Builder } from "./builder.ts";' },
      { path: "src/cache/cache.ts", source: 'import type { Runnable } from "../manager/runnable.ts";' },
      { path: "src/manager/manager.ts", source: 'import { Cache } from "../cache/cache.ts";' },
      { path: "src/manager/runnable.ts", source: "" },
    ];
    assert.deepEqual(cyclesOf(graphOf(files)), [["src/builder/builder.ts", "src/builder/options.ts"]]);
    assert.deepEqual(cyclesOf(folderGraph(graphOf(files))), [["src/cache", "src/manager"]]);
  });
});
