// eslint over the browser page (ES modules, no build step) and its unit tests under Node.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/"] },
  js.configs.recommended,
  {
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-implicit-globals": "error",
      "no-eval": "error", // the page's Content-Security-Policy forbids it too
      "no-implied-eval": "error",
      "no-new-func": "error",
      eqeqeq: ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    files: ["src/shutthebox/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["src/shutthebox/web/static/sw.js"], // a classic script: its top level is the worker's own scope
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
    rules: { "no-implicit-globals": "off" },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
  },
];
