// The service worker keeps every module of the page, so the page works offline once loaded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

const STATIC = new URL("../../src/shutthebox/web/static/", import.meta.url);
const worker = readFileSync(new URL("sw.js", STATIC), "utf8");
const cached = new Set([...worker.matchAll(/"(\/static\/[^"]+)"/g)].map((found) => found[1]));
const modules = readdirSync(STATIC).filter((name) => name.endsWith(".js") && name !== "sw.js");
const tables = readdirSync(new URL("tables/", STATIC)).filter((name) => name.endsWith(".json"));

test("every module of the page is in the offline cache", () => {
  const missing = modules.filter((name) => !cached.has(`/static/${name}`));
  assert.deepEqual(missing, []);
});

test("every prebuilt value table is in the offline cache, for practice and the companion", () => {
  assert.ok(tables.length > 0);
  const missing = tables.filter((name) => !cached.has(`/static/tables/${name}`));
  assert.deepEqual(missing, []);
});

test("every file the cache lists is there, once", () => {
  const listed = [...worker.matchAll(/"(\/static\/[^"]+)"/g)].map((found) => found[1]);
  assert.equal(listed.length, new Set(listed).size, "Cache.addAll refuses a list with a file twice");
  const present = new Set([...readdirSync(STATIC), ...tables.map((name) => `tables/${name}`)]);
  const absent = listed.filter((path) => !present.has(path.slice("/static/".length)));
  assert.deepEqual(absent, []);
});

test("every module a module imports is a file of the page", () => {
  for (const name of modules) {
    const text = readFileSync(new URL(name, STATIC), "utf8");
    for (const [, target] of text.matchAll(/^import .* from "\.\/([^"]+)";$/gm)) {
      assert.ok(modules.includes(target), `${name} imports ${target}`);
    }
  }
});
