// The tutor's countdown (static/js/practice.js): the time the bot still waits, as a clock reads.
import assert from "node:assert/strict";
import { test } from "node:test";
import { client } from "./load.mjs";

const { waitText } = await import(client("practice.js"));

test("the wait in minutes and seconds, rounded up, never below zero", () => {
  assert.equal(waitText(120), "2:00");
  assert.equal(waitText(119.2), "2:00");
  assert.equal(waitText(59.01), "1:00");
  assert.equal(waitText(5), "0:05");
  assert.equal(waitText(0.2), "0:01");
  assert.equal(waitText(-3), "0:00");
});
