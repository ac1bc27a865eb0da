/**
 * `operator-runtime gen types` treats a CRD as untrusted data, run for real from the sources:
 * no `$ref` is followed (a local secret file, an HTTP URL served here, a plain text file),
 * schemas that loop or explode through YAML aliases are refused, every refusal is one line
 * naming the file and the JSON path (exit 1, no stack trace), and text from the CRD (field
 * names, descriptions, enum values, the file name in the header) lands in the generated module
 * escaped: the module type-checks with the repo's TypeScript, declares nothing the CRD
 * smuggled in, and keeps every name and value exactly.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CrdTypesError } from "../../src/cli/crd-types/crd-types-error.ts";
import { declaration } from "../../src/cli/crd-types/declaration.ts";
import { schemaCompiler } from "../../src/cli/crd-types/schema-compiler.ts";
import { complete } from "../support/cli.ts";
import { typecheck } from "../support/typecheck.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));

/** What the secret file and the HTTP server hold: it must never show up anywhere. */
const SECRET = "SECRET-7f3a9c";

/** Runs `operator-runtime gen types …` to its end. */
const gen = (args: string[]) => complete(["gen", "types", ...args], { timeoutMs: 30_000 });

/** The path of the storage version's spec fields in every CRD made by `crd`. */
const SPEC_FIELDS = "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties";

/** The refusal of a `$ref` keyword in a schema. */
const KEYWORD = "$ref is not allowed in a CRD schema (Kubernetes forbids it); remove it";

/** The refusal of a `$ref` key in a value (an enum's, a default). */
const VALUE = "$ref is not allowed in a CRD schema, not even in a value (gen types never follows references); remove it";

/** `text` matched literally in a RegExp. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A CRD (apiextensions.k8s.io/v1) of kind Hostile whose v1 spec has `fields`; `root` adds to the root schema. */
function crd(fields: object, root: object = {}, extraVersions: object[] = []): object {
  const schema = { type: "object", ...root, properties: { spec: { type: "object", properties: fields }, ...("properties" in root ? (root.properties as object) : {}) } };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "hostiles.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "hostiles", kind: "Hostile" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }, ...extraVersions],
    },
  };
}

/** A CRD of kind Hostile as YAML text, its v1 root schema an object with `rootLines` (YAML, indented as at the root). */
const crdYaml = (rootLines: readonly string[]) =>
  [
    "apiVersion: apiextensions.k8s.io/v1",
    "kind: CustomResourceDefinition",
    "metadata: { name: hostiles.example.com }",
    "spec:",
    "  group: example.com",
    "  scope: Namespaced",
    "  names: { plural: hostiles, kind: Hostile }",
    "  versions:",
    "    - name: v1",
    "      served: true",
    "      storage: true",
    "      schema:",
    "        openAPIV3Schema:",
    "          type: object",
    ...rootLines.map((l) => `          ${l}`),
    "",
  ].join("\n");


/** `text` as a TypeScript string literal, with no raw line terminator in it. */
const tsString = (text: string) => JSON.stringify(text).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/** Asserts `r` is a refusal: exit 1, nothing on stdout, one line on stderr matching `message`, no stack trace. */
function assertRefused(r: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr.split("\n").filter((l) => l !== "").length, 1, `one line: ${r.stderr}`);
  assert.match(r.stderr, /^operator-runtime gen types: /);
  assert.match(r.stderr, message);
  assert.doesNotMatch(r.stderr, /\n\s+at |TypeError|weak map/, "no stack trace");
  assert.doesNotMatch(r.stderr, new RegExp(SECRET));
}

describe("operator-runtime gen types on hostile CRDs", () => {
  let dir = "";
  let secretFile = "";
  let plainFile = "";
  let server: Server;
  let url = "";
  let requests = 0;

  /** Writes `docs` as a YAML file (JSON is YAML) named `name` in the test's folder. */
  const write = async (name: string, ...docs: object[]) => {
    const file = join(dir, name);
    await writeFile(file, docs.map((d) => JSON.stringify(d, null, 2)).join("\n---\n"));
    return file;
  };

  before(async () => {
    await mkdir(join(repo, ".tmp"), { recursive: true });
    dir = await mkdtemp(join(repo, ".tmp", "gen-types-hostile-"));
    secretFile = join(dir, "secret.json");
    await writeFile(secretFile, JSON.stringify({ token: SECRET }));
    plainFile = join(dir, "notes.txt");
    await writeFile(plainFile, `just some text, ${SECRET}\n`);
    server = createServer((_req, res) => {
      requests += 1;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ token: SECRET }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.json`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("refuses an enum value {$ref: <a local secret file>}, naming the file and the JSON path, and writes nothing", async () => {
    const file = await write("ref-secret.yaml", crd({ mode: { type: "object", enum: [{ $ref: secretFile }] } }));
    const out = join(dir, "ref-secret-out");
    const r = await gen([file, "--out", out]);
    assertRefused(r, new RegExp(`ref-secret\\.yaml: ${escapeRegExp(`${SPEC_FIELDS}.mode.enum[0]: ${VALUE}`)}$`, "m"));
    await assert.rejects(readdir(out), { code: "ENOENT" }, "nothing written");
  });

  it("refuses an enum value {$ref: <an http URL>} without a single request to it", async () => {
    const before = requests;
    const file = await write("ref-http.yaml", crd({ mode: { enum: ["a", { $ref: url }] } }));
    const r = await gen([file]);
    assertRefused(r, /ref-http\.yaml: spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\.spec\.properties\.mode\.enum\[1\]: \$ref is not allowed/);
    assert.equal(requests - before, 0, "the URL was fetched");
  });

  it("refuses an enum value {$ref: <a plain text file>} with a one-line error, not a crash", async () => {
    const file = await write("ref-text.yaml", crd({ mode: { enum: [{ $ref: plainFile }] } }));
    const r = await gen([file]);
    assertRefused(r, /ref-text\.yaml: .*\.mode\.enum\[0\]: \$ref is not allowed/);
  });

  for (const [name, fields, path, message] of [
    ["a $ref as a field's schema", { mode: { $ref: "#/definitions/Mode" } }, `${SPEC_FIELDS}.mode`, KEYWORD],
    ["a $ref as an array's items", { modes: { type: "array", items: { $ref: join(repo, "package.json") } } }, `${SPEC_FIELDS}.modes.items`, KEYWORD],
    ["a $ref in a map's values", { labels: { type: "object", additionalProperties: { $ref: "other.json" } } }, `${SPEC_FIELDS}.labels.additionalProperties`, KEYWORD],
    ["a $ref deep in a default", { conf: { type: "object", "x-kubernetes-preserve-unknown-fields": true, default: { a: [{ b: { $ref: "x" } }] } } }, `${SPEC_FIELDS}.conf.default.a[0].b`, VALUE],
    ["a $ref in an enum value under an odd field name", { "a.b c": { enum: [{ $ref: "x" }] } }, `${SPEC_FIELDS}["a.b c"].enum[0]`, VALUE],
  ] as const) {
    it(`refuses ${name}, naming its path`, async () => {
      const file = await write(`ref-${name.replace(/\W+/g, "-")}.yaml`, crd(fields));
      const r = await gen([file]);
      assertRefused(r, new RegExp(`\\.yaml: ${escapeRegExp(`${path}: ${message}`)}$`, "m"));
    });
  }

  it("types a field named $ref: a name, not a reference", async () => {
    const file = await write("ref-name.yaml", crd({ $ref: { type: "string", description: "Named after JSON schema's keyword." } }));
    const r = await gen([file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\n {2}\$ref\?: string;\n/);
  });

  it("types a field named __field and a million underscores next to one named constructor, promptly", async () => {
    const long = `__field${"_".repeat(1_000_000)}`;
    const file = await write("underscores.yaml", crd({ [long]: { type: "string" }, constructor: { type: "string" } }));
    const r = await gen([file]);
    assert.equal(r.code, 0, r.stderr.slice(0, 2000));
    assert.ok(r.stdout.includes(`\n  ${long}?: string;\n`), "the long field, as it is");
    assert.match(r.stdout, /\n {2}constructor\?: string \| globalThis\.Object\["constructor"\];\n/);
  });

  it("refuses a schema that contains itself through a YAML alias, naming where it loops", async () => {
    const file = join(dir, "loop.yaml");
    await writeFile(file, crdYaml(["properties:", "  spec: &spec", "    type: object", "    properties:", "      child: *spec"]));
    const r = await gen([file]);
    assertRefused(r, /loop\.yaml: spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\.spec\.properties\.child: the schema contains itself/);
  });

  it("refuses YAML aliases that expand to ten billion values, without expanding them", async () => {
    const levels = ['  l0: &l0 ["a", "a", "a", "a", "a", "a", "a", "a", "a", "a"]'];
    for (let i = 1; i < 10; i++) levels.push(`  l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(", ")}]`);
    const file = join(dir, "laughs.yaml");
    await writeFile(file, crdYaml(["x-laughs:", ...levels]));
    const r = await gen([file]);
    assertRefused(r, /laughs\.yaml: spec\.versions\[0\]\.schema\.openAPIV3Schema: the schema holds more than 2000000 values \(counting each use of a YAML alias\)/);
  });

  it("a bad CRD in a file whose name holds a newline and an escape sequence still gets one line", async () => {
    const file = await write("bad\n\u001b[31mname.yaml", crd({ mode: { enum: [{ $ref: secretFile }] } }));
    const r = await gen([file]);
    assertRefused(r, /bad\\u000a\\u001b\[31mname\.yaml: .*\.mode\.enum\[0\]: \$ref is not allowed/);
  });

  it("invalid YAML gets one line with the line and column, not the parser's snippet of the file", async () => {
    const file = join(dir, "broken.yaml");
    await writeFile(file, `kind: CustomResourceDefinition\nspec:\n  group: [unclosed \u001b[2J\n`);
    const r = await gen([file]);
    assertRefused(r, /broken\.yaml is not valid YAML: .* \(line \d+, column \d+\)$/m);
    assert.doesNotMatch(r.stderr, /\u001b/, "no escape sequence reaches the terminal");
  });

  it("a skipped document's kind is printed with its control characters escaped", async () => {
    const file = await write("skipped.yaml", { apiVersion: "v1", kind: "Config\u001b[2JMap\nfake line", metadata: { name: "x" } }, crd({ size: { type: "integer" } }));
    const r = await gen([file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, `operator-runtime gen types: skipped ${file} (document 1): a Config\\u001b[2JMap\\u000afake line, not a CustomResourceDefinition\n`);
  });

  it("json-schema-to-typescript as gen types runs it follows no $ref to a file or a URL, even one that got past the checks", async () => {
    const before = requests;
    const compile = await schemaCompiler();
    const code = await compile({ type: "object", properties: { file: { enum: [{ $ref: secretFile }] }, web: { enum: [{ $ref: url }] } } }, "Spec");
    assert.equal(requests - before, 0, "the URL was fetched");
    assert.doesNotMatch(code, new RegExp(SECRET));
    assert.match(code, /file\?: \{ \$ref: ".*secret\.json" \};/, "left as the literal it is");
    const text = await compile({ type: "object", properties: { text: { enum: [{ $ref: plainFile }] } } }, "Spec");
    assert.match(text, /text\?: \{ \$ref: ".*notes\.txt" \};/);
  });

  it("a failure of json-schema-to-typescript becomes a one-line CrdTypesError naming the CRD and the type", async () => {
    const failing = async () => {
      throw new TypeError("Invalid value used as weak map key\n    at WeakMap.set (<anonymous>)");
    };
    await assert.rejects(declaration(failing, { type: "object" }, "HostileSpec", "crds/hostile.yaml"), (err: unknown) => {
      assert.ok(err instanceof CrdTypesError, String(err));
      assert.equal(err.message, "crds/hostile.yaml: json-schema-to-typescript cannot type HostileSpec: Invalid value used as weak map key");
      return true;
    });
  });

  it("escapes hostile field names, descriptions, enum values and the file name: the module type-checks, declares only its own names and keeps every value", async () => {
    // If any of these ended a comment or a string, `injected()` would be code: an unknown name for tsc.
    const code = "injected(); export const pwned = 1;";
    const values = [
      'a"b', "c\\d", "e\nf", "g\u2028h", "i\u2029j", "k\rl", `*/ ${code} /*`, `'; ${code} '`, `"; ${code} "`, "ends with \\", "`${injected()}`", "</script>", "\u0000\u001b[31m",
    ];
    const fields: Record<string, object> = {
      mode: { type: "string", description: `Ends here */ ${code} /* and goes on`, enum: values },
      [`x": ${code} "y`]: { type: "string", description: `a\u2028${code}\u2029b\r\n${code}\r*/` },
      [`line\nbreak */ ${code}`]: { type: "integer" },
      [`sep\u2028${code}`]: { type: "boolean", default: `*/ ${code} /*` },
      [`'${code}'`]: { enum: [{ [`k*/\u2028${code}`]: `v*/ ${code}` }, [`*/${code}`], 1, null] },
      plain: { type: "string" },
    };
    const document = crd(fields, { description: `Root */ ${code} /*`, properties: { [`top */ ${code}`]: { type: "string", description: `*/ ${code}` } } }, [
      {
        name: "v1beta1",
        served: true,
        storage: false,
        deprecated: true,
        deprecationWarning: `old */ ${code} /*\u2028${code}`,
        schema: { openAPIV3Schema: { type: "object", description: `*/ ${code}`, properties: { spec: { type: "object", properties: fields } } } },
      },
    ]);
    const check = join(dir, "escaped");
    await mkdir(check, { recursive: true });
    const file = join(check, `hostile\n${code}\u2028.yaml`);
    await writeFile(file, JSON.stringify(document));
    const r = await gen([file]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /[\u2028\u2029]/, "no raw line separator");
    assert.match(r.stdout, /^\/\/ Generated by `operator-runtime gen types` from hostile\\u000ainjected\(\); export const pwned = 1;\\u2028\.yaml\. Do not edit/);
    assert.deepEqual([...r.stdout.matchAll(/^export (?:interface|type|const) (\w+)/gm)].map((m) => m[1]), [
      "HostileSpec", "HostileResource", "Hostile", "Hostile", "HostileV1Beta1Spec", "HostileV1Beta1", "HostileV1Beta1",
    ]);
    await writeFile(join(check, "types.ts"), r.stdout);
    const names = Object.keys(fields);
    await writeFile(
      join(check, "use.ts"),
      `import type { HostileResource, HostileSpec, HostileV1Beta1Spec } from "./types.ts";

// Every field, by its exact name, and nothing else.
export const fields: { [K in keyof HostileSpec]-?: true } = { ${names.map((n) => `${tsString(n)}: true`).join(", ")} };
// Every enum value, exactly, and nothing else.
export const modes: { [V in NonNullable<HostileSpec["mode"]>]: true } = { ${values.map((v) => `${tsString(v)}: true`).join(", ")} };
export const spec: HostileV1Beta1Spec = { mode: ${tsString(values[3] ?? "")}, ${tsString(names[1] ?? "")}: "s", ${tsString(names[4] ?? "")}: { ${tsString(`k*/\u2028${code}`)}: ${tsString(`v*/ ${code}`)} } };
export const top: HostileResource["top */ injected(); export const pwned = 1;"] = "t";
// @ts-expect-error not one of the values
export const wrong: HostileSpec["mode"] = "injected";
`,
    );
    assert.equal(await typecheck(check), "");
  });
});
