/**
 * `changes-render`: the session page's Changes tab (docs/worktrees.md#the-changes-tab) in real Chromium, for a
 * session with 1,000 changed files: from navigation until the file list and the first diffs are on screen, against
 * the same page's Transcript tab in the same run (p50 of 7 each, alternating, after one warm-up; target < 1 s). The
 * hub is this process's, its session the real `claude` on the fake Messages API (it only has to exist).
 */
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { startFakeApi } from "../e2e/fake-anthropic/server.ts";
import { launchBrowser } from "../e2e/helpers/browser.ts";
import { isolatedClaudeVars } from "../e2e/helpers/claude.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { startHub } from "../server/server.ts";
import { PROJECT_ROOT } from "../server/version.ts";
import { check, post } from "./lib/check.ts";
import { plantRepo, timed } from "./lib/git-repo.ts";
import { median, ms, target } from "./lib/stats.ts";
import { sessionHubEnv } from "./lib/session-hub-env.ts";
import { inTempDir } from "./lib/temp-db.ts";

const FILES = 2_000;
const CHANGED = 1_000;
const RUNS = 7;

/**
 * Navigation until `ready` holds in the page (polled on every animation frame), and when the response of `api`
 * (if given) had fully arrived: what is left after it is the dashboard's own work.
 */
async function shown(page: Page, url: string, ready: string, api?: string): Promise<{ total: number; answered: number }> {
  const t0 = performance.now();
  let answered = 0;
  const response = api
    ? page
        .waitForResponse((r) => r.url().includes(api))
        .then(async (r) => {
          await r.finished();
          answered = performance.now() - t0;
        })
    : null;
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(ready, undefined, { polling: "raf", timeout: 60_000 });
  const total = performance.now() - t0;
  await response;
  return { total, answered };
}

export default async function changesRender(): Promise<void> {
  ensureBuild(PROJECT_ROOT);
  const fake = await startFakeApi(() => ({ text: "pong" }));
  const browser = await launchBrowser();
  try {
    await inTempDir(async (dir) => {
      const repo = path.join(dir, "repo");
      plantRepo(repo, FILES, 100, (i) => `export const x${i} = ${i};\nexport const y${i} = "${"y".repeat(40)}";\n`);
      const env = sessionHubEnv(dir, isolatedClaudeVars(fake.url, path.join(dir, "home")), repo);
      const hub = await startHub(env);
      try {
        const s = await post(`${hub.url}/api/sessions`, { name: "changer", isolation: "worktree" });
        for (let i = 0; i < CHANGED; i++) {
          const f = path.join(s.workDir, "src", `d${i % 100}`, `f${i}.ts`);
          fs.writeFileSync(f, `${fs.readFileSync(f, "utf8")}export const z${i} = ${i};\n`);
        }
        const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
        const base = `${hub.url}/sessions/changer`;
        const changesReady = `document.querySelectorAll('[data-testid="code-file"]').length === ${CHANGED} && document.querySelector('.code-file table.diff') !== null`;
        const transcriptReady = `document.querySelector('[data-testid="transcript-card"]') !== null`;
        const tab: number[] = [];
        const answered: number[] = [];
        const transcript: number[] = [];
        const fetched: number[] = [];
        for (let i = -1; i < RUNS; i++) {
          const c = await shown(page, `${base}?tab=changes`, changesReady, "/api/sessions/changer/changes");
          const t = (await shown(page, base, transcriptReady)).total;
          let files = 0;
          const f = await timed(async () => (files = (await (await fetch(`${hub.url}/api/sessions/changer/changes`)).json()).files.length));
          check(files === CHANGED, `the API lists ${CHANGED} files (got ${files})`);
          if (i >= 0) {
            tab.push(c.total);
            answered.push(c.answered);
            transcript.push(t);
            fetched.push(f);
          }
        }
        await page.goto(`${base}?tab=changes`);
        await page.waitForFunction(changesReady);
        const open = await page.locator(".code-file table.diff").count();
        const p50 = median(tab);
        console.log(
          `changes.render: Changes tab of a session with ${CHANGED.toLocaleString("en")} changed files, navigation until the file list and the first diffs (${open} files open) are shown, p50 ${ms(p50)} ` +
            `vs the same page's Transcript tab ${ms(median(transcript))}; ratio ${(p50 / median(transcript)).toFixed(2)}x ${target("< 1 s", p50 < 1000)} ` +
            `(the changes answer had arrived at p50 ${ms(median(answered))}; the same API fetched from node alone: ${ms(median(fetched))})`,
        );
        await page.close();
      } finally {
        await hub.close();
      }
    });
  } finally {
    await browser.close();
    await fake.close();
  }
}
