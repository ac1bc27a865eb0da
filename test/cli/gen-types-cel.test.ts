/**
 * `gen types` keeps a schema node's CEL validation rules (`x-kubernetes-validations`) in the
 * generated TSDoc as `@remarks`, one line per rule, and no rule text can end the comment.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { declaration } from "../../src/cli/crd-types/declaration.ts";
import { schemaCompiler } from "../../src/cli/crd-types/schema-compiler.ts";
import { celRemarks, toJsonSchema } from "../../src/cli/crd-types/structural-schema.ts";

const greetingSpec = {
  type: "object",
  description: "What to greet.",
  "x-kubernetes-validations": [
    { rule: "has(self.name) != has(self.surname)", message: "exactly one of name and surname" },
    { rule: "self.name == oldSelf.name", messageExpression: "'name is immutable'", reason: "FieldValueForbidden", fieldPath: ".name" },
  ],
  properties: {
    name: { type: "string" },
    surname: { type: "string", "x-kubernetes-validations": [{ rule: "self.size() <=\n  63" }] },
  },
};

describe("gen types keeps CEL rules in the TSDoc", () => {
  it("writes one @remarks line per rule, with its message, transition marker, fieldPath and reason", () => {
    assert.equal(
      celRemarks(greetingSpec),
      [
        "@remarks",
        'CEL: `has(self.name) != has(self.surname)` — "exactly one of name and surname"',
        "CEL: `self.name == oldSelf.name` (transition rule) — message: `'name is immutable'` (fieldPath `.name`, reason FieldValueForbidden)",
      ].join("\n"),
    );
    assert.equal(celRemarks({ type: "string" }), undefined);
  });

  it("puts the rules in the generated declaration's doc comments, on the node that holds them", async () => {
    const compile = await schemaCompiler();
    const code = await declaration(compile, toJsonSchema(greetingSpec), "GreetingSpec", "greeting.yaml");
    assert.match(code, /\* What to greet\.\n \*\n \* @remarks\n \* CEL: `has\(self\.name\) != has\(self\.surname\)` — "exactly one of name and surname"\n/);
    assert.match(code, /\* CEL: `self\.size\(\) <= 63`\n\s*\*\/\n\s*surname\?: string;/);
  });

  it("keeps a rule that contains */ or backticks inside the comment", async () => {
    const compile = await schemaCompiler();
    const hostile = { type: "object", properties: { a: { type: "string", "x-kubernetes-validations": [{ rule: "self != '*/ export const x = 1; /*' && self != '`'" }] } } };
    const code = await declaration(compile, toJsonSchema(hostile), "Hostile", "hostile.yaml");
    assert.ok(!/^export const x/m.test(code));
    assert.ok(code.includes("CEL: ``self != '*\\/ export const x = 1; /*' && self != '`'``"), code);
    assert.equal((code.match(/\*\//g) ?? []).length, (code.match(/\/\*\*/g) ?? []).length, "every comment ends once");
  });
});
