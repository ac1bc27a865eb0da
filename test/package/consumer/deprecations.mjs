// Which names a consumer's editor reports as deprecated: runs a TypeScript language service (the
// one named by the first argument, e.g. `typescript5`) over the file named by the second and
// prints one JSON line with the names of its "'X' is deprecated" suggestions (code 6385).
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const [tsName, file] = process.argv.slice(2);
const require = createRequire(path.join(process.cwd(), "package.json"));
const ts = require(tsName);
const options = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true, noEmit: true, types: ["node"],
};
const host = {
  getScriptFileNames: () => [file],
  getScriptVersion: () => "1",
  getScriptSnapshot: (name) => { try { return ts.ScriptSnapshot.fromString(readFileSync(name, "utf8")); } catch { return undefined; } },
  getCurrentDirectory: () => process.cwd(),
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists, getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const deprecated = new Set();
for (const d of service.getSuggestionDiagnostics(path.resolve(file))) {
  if (d.code !== 6385) continue;
  const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
  const name = /^'([^']+)' is deprecated/.exec(text)?.[1];
  if (name) deprecated.add(name);
}
const errors = service.getSemanticDiagnostics(path.resolve(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
console.log(JSON.stringify({ deprecated: [...deprecated].sort(), errors }));
