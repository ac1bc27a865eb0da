/**
 * The names a module exports, read from its source by following `export … from`, `export *`
 * and `export class/function/const/interface/type` statements (the forms this repository uses),
 * each with whether it exists at run time ("value") or only for the type checker ("type").
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { codeOnly } from "../architecture/imports.ts";
export function exportsOf(file: string, via: readonly string[] = []): Map<string, "value" | "type"> {
  const out = new Map<string, "value" | "type">();
  if (via.includes(file)) return out;
  const src = codeOnly(readFileSync(file, "utf8"));
  for (const m of src.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s*(?:from\s*["']([^"']+)["'])?/g)) {
    const typeOnly = !!m[1];
    for (let item of m[2]!.split(",")) {
      item = item.trim(); if (!item) continue;
      const t = typeOnly || item.startsWith("type ");
      item = item.replace(/^type\s+/, "");
      const name = item.split(/\s+as\s+/).pop()!.trim();
      out.set(name, t ? "type" : "value");
    }
  }
  for (const m of src.matchAll(/export\s+\*\s+from\s*["']([^"']+)["']/g)) {
    if (!m[1]!.startsWith(".")) continue;
    for (const [k, v] of exportsOf(resolve(dirname(file), m[1]!), [...via, file])) if (k !== "default") out.set(k, v);
  }
  for (const m of src.matchAll(/export\s+(?:declare\s+)?(?:abstract\s+)?(class|function|const|let|interface|type)\s+([A-Za-z_$][\w$]*)/g)) {
    out.set(m[2]!, m[1] === "interface" || m[1] === "type" ? (out.get(m[2]!) === "value" ? "value" : "type") : "value");
  }
  return out;
}
