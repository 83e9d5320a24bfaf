// ESLint flat config: typescript-eslint's recommended rules without type information (fast; `npm run typecheck`
// does the type checking) and the React hooks rules for the dashboard. Prettier owns the layout (`.prettierrc.json`).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

// Wire data and JSON columns are parsed with their zod schemas, never cast (docs/events.md for events).
// `as unknown` stays allowed: it only takes the `any` away from JSON.parse.
const CASTS_OF_WIRE_DATA = [
  {
    selector:
      "TSAsExpression[expression.type='CallExpression'][expression.callee.object.name='JSON'][expression.callee.property.name='parse']:not([typeAnnotation.type='TSUnknownKeyword'])",
    message: "Parse JSON with its zod schema (`Schema.parse(JSON.parse(text))`) instead of casting it.",
  },
  {
    selector:
      "TSAsExpression[expression.type='AwaitExpression'][expression.argument.callee.property.name='json']:not([typeAnnotation.type='TSUnknownKeyword'])",
    message: "Parse a response body with its zod schema (lib/api/call.ts) instead of casting it.",
  },
  {
    selector: "TSAsExpression[expression.type='MemberExpression'][expression.property.name='payload']",
    message: "Narrow an event on its `type` (lib/api/events.ts) instead of casting its payload.",
  },
];

// One query key, one shape of data (lib/queries/keys.ts): an infinite query's entry holds `{ pages, pageParams }`, so its
// key comes from a `pages` factory, and a plain query never takes one.
const ONE_SHAPE_PER_KEY = [
  {
    selector:
      "CallExpression[callee.name=/^(useInfiniteQuery|useSuspenseInfiniteQuery|infiniteQueryOptions)$/] > ObjectExpression > Property[key.name='queryKey']:not([value.type='CallExpression'][value.callee.property.name='pages'])",
    message: "An infinite query's key is `keys.<list>.pages(…)` (lib/queries/keys.ts), which no plain query shares.",
  },
  {
    selector:
      "CallExpression[callee.name=/^(useQuery|useSuspenseQuery|queryOptions)$/] > ObjectExpression > Property[key.name='queryKey'] CallExpression[callee.property.name='pages']",
    message: "A `pages` key holds an infinite query's pages (lib/queries/keys.ts); a plain query takes its list's `list` key.",
  },
];

// Which way the code may depend (docs/architecture.md#layers): the dashboard and the client library reach the hub over
// HTTP and /ws only, and the domain never calls the doors that call it.
const OFF_THE_SERVER = {
  group: ["**/server/**", "@/server/**"],
  message: "lib/ and components/ run in the browser and in clients: reach the hub through lib/api and lib/client, and share types from lib/.",
};
const OFF_THE_DOORS = {
  group: ["**/http/**", "**/mcp/**", "**/cli/**", "**/ws/**", "**/app/**", "@/app/**", "**/services.ts", "**/operations/**"],
  message: "The domain is called by the doors (HTTP, MCP, CLI, /ws), never the other way round: take what it needs as a parameter or from DomainDeps.",
};

export default defineConfig(
  globalIgnores(["node_modules/", ".next/", "server/generated/", "data/", "coverage/", "e2e/.tmp/", "e2e/screenshots/", "next-env.d.ts", "dist/"]),
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
    // The hub and the dashboard; tests and benchmarks assert on what they read, which is their check.
    files: ["server/**/*.ts", "lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "app/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts", "server/testing/**"],
    rules: { "no-restricted-syntax": ["error", ...CASTS_OF_WIRE_DATA, ...ONE_SHAPE_PER_KEY] },
  },
  {
    files: ["lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [OFF_THE_SERVER] }] },
  },
  {
    files: ["server/domain/**/*.ts"],
    // A test may build the whole hub around the part it checks.
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [OFF_THE_DOORS] }] },
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
