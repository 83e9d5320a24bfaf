/**
 * `npm pack` and `npm publish` run this first (the `prepack` script): what the package carries besides
 * package.json's `files` as they are (docs/distribution.md).
 * - dist/: the bundled command and the compiled client library (scripts/compile-dist.ts), unless what is there was
 *   made from the same sources (its stamp; the e2e tests keep it current and run from it meanwhile);
 * - .next/: the dashboard's production build, current with the sources (server/cli/build-stamp.ts).
 * Then it checks that nothing compiled imports a package outside `dependencies`: the installed package has no
 * dev dependencies (tsx, TypeScript, Prisma's CLI, …).
 */
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { z } from "zod";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { bundledImports, DIST, ensureCompiled } from "./compile-dist.ts";

/** Every bare import specifier in the compiled JavaScript (static, dynamic and re-exports). */
function importsOf(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(m?js)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm,
    )) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.startsWith(".") && !spec.startsWith("/")) found.set(spec, path.relative(PROJECT_ROOT, file));
    }
  }
  return found;
}

const packageName = (spec: string) => (spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);

function checkRuntimeImports() {
  const manifest = z
    .object({ dependencies: z.record(z.string(), z.string()) })
    .parse(JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")));
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  // The bundle's imports are read from its recipe (its text also carries the comments of the packages it took in, which
  // name imports of their own); those of the client library from its compiled files.
  const imports = new Map([...bundledImports(), ...importsOf(path.join(DIST, "lib"))]);
  const wrong = [...imports].filter(([spec]) => !builtins.has(spec) && !(packageName(spec) in manifest.dependencies));
  if (wrong.length) throw new Error(`compiled code imports packages that are not dependencies:\n${wrong.map(([s, f]) => `  ${s} (${f})`).join("\n")}`);
}

function prepack() {
  console.log(`prepack: ${ensureCompiled((m) => console.log(`prepack: ${m}`)) ? "dist compiled" : "dist is current"}`);
  checkRuntimeImports();
  console.log(`prepack: ${ensureBuild(PROJECT_ROOT, (m) => console.log(`prepack: ${m}`)) ? "dashboard built" : "dashboard build is current"}`);
}

prepack();
