// The top bar's language switch: what each button shows where the names take too much room.

import { test } from "node:test";
import assert from "node:assert/strict";

import { shortNames } from "../../src/shutthebox/web/static/i18n.js";

test("each language shows its code in capitals", () => {
  assert.deepEqual([...shortNames(["en", "es"])], [["en", "EN"], ["es", "ES"]]);
});

test("a language of a region or a variant beside its plain language keeps its name", () => {
  assert.deepEqual([...shortNames(["en", "en@pseudo", "es"])], [["en", "EN"], ["es", "ES"]]);
  assert.deepEqual([...shortNames(["pt_BR", "pt_PT"])], []);
  assert.deepEqual([...shortNames(["pt_BR", "es"])], [["pt_BR", "PT"], ["es", "ES"]]);
});
