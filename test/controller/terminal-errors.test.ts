import { test } from "node:test";
import assert from "node:assert/strict";
import { BuilderValidationError, InvalidError, ServerError, terminal } from "../../src/errors.ts";
import { isTerminalError, markTerminal } from "../../src/controller/terminal-errors.ts";

const invalid = () => new InvalidError(422, { reason: "Invalid", message: 'Widget.example.com "w" is invalid: spec.size: Invalid value' }, "create widgets ns/w");

test("a 422 InvalidError is terminal only once marked, and stays an InvalidError", () => {
  const err = invalid();
  assert.equal(isTerminalError(err), false, "a reconciler's own 422 keeps the usual backoff");
  markTerminal(err);
  assert.equal(isTerminalError(err), true);
  assert.ok(err instanceof InvalidError);
});

test("an AggregateError is terminal when every error in it is, also nested", () => {
  const marked = invalid();
  markTerminal(marked);
  const validation = new BuilderValidationError("Service/9cache", "metadata.name", "starts with a digit", "rename it");
  assert.equal(isTerminalError(new AggregateError([marked, validation, terminal("bad spec")], "children failed")), true);
  assert.equal(isTerminalError(new AggregateError([new AggregateError([marked]), validation])), true);
  assert.equal(isTerminalError(new AggregateError([marked, new ServerError(500, {}, "create widgets ns/x")])), false, "one transient error: retried");
  assert.equal(isTerminalError(new AggregateError([])), false, "nothing failed terminally");
});

test("a self-containing AggregateError does not loop", () => {
  const agg = new AggregateError([]);
  (agg as { errors: unknown[] }).errors = [agg];
  assert.equal(isTerminalError(agg), false);
});
