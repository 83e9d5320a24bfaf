// ESLint flat config: typescript-eslint's recommended rules without type information (fast; `npm run typecheck`
// does the type checking) and the React hooks rules for the dashboard. Prettier owns the layout (`.prettierrc.json`).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores(["node_modules/", ".next/", "server/generated/", "data/", "coverage/", "e2e/.tmp/", "e2e/screenshots/", "next-env.d.ts"]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // The plain .mjs files are Node scripts and workers.
    files: ["**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      // `const { pk: _pk, ...view } = row` drops a field on purpose; an `_` name says the value is unused.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["e2e/**", "bench/**"],
    rules: {
      // Tests and benchmarks read JSON bodies of a running hub as `any` and assert on them; the assertion is the check.
      "@typescript-eslint/no-explicit-any": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      // Deliberate: browser-only state (localStorage, the URL) is read in an effect after mounting so the server
      // render and hydration agree, and a form, dialog or feed resets its state in an effect when its subject changes.
      "react-hooks/set-state-in-effect": "off",
    },
  },
);
