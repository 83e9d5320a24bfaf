/**
 * `package.start`: the installed package's cold start (docs/distribution.md). This checkout is packed and installed
 * with `npm install -g` into a temporary prefix, as e2e/package.test.ts does (or TEAMHUB_BENCH_PACKAGE names the
 * directory of an earlier such install, to skip the minutes that takes); then `teamhub start` of a new user (empty
 * HOME, so a new ~/.teamhub and its migrations) is timed from the spawn to the first healthy `/api/health`, and then
 * the dashboard, against the same machine's floor: `node -e "require('http').createServer().listen(0)"` timed to its
 * first answer. Runs alternate; the figures are medians. Also printed: the tarball and the installed size.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { installedAt, packAndInstall, sizeOf, startInstalled, userEnv, type InstalledPackage } from "../e2e/helpers/installed-package.ts";
import { check } from "./lib/check.ts";
import { mb, median, ms, target } from "./lib/stats.ts";
import { inTempDir } from "./lib/temp-db.ts";

const RUNS = 5;
const HEALTHY_WITHIN_MS = 10_000;
const FLOOR = "const s=require('http').createServer((q,r)=>r.end('ok')).listen(0,()=>console.log(s.address().port))";

async function answers(url: string, deadline: number): Promise<Response> {
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    check(Date.now() < deadline, `${url} answered in time`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The floor: a bare Node HTTP server, from spawn to its first answer. */
async function floorStart(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ["-e", FLOOR], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim())));
  await (await answers(`http://127.0.0.1:${port}/`, Date.now() + 30_000)).text();
  const elapsed = performance.now() - t0;
  child.kill();
  return elapsed;
}

/** A new user's first `teamhub start`: spawn → healthy, and → the dashboard's first page. */
async function packageStart(pkg: InstalledPackage, dir: string, run: number): Promise<{ healthy: number; dashboard: number }> {
  const home = path.join(dir, `home-${run}`);
  const cwd = path.join(dir, `cwd-${run}`);
  fs.mkdirSync(home);
  fs.mkdirSync(cwd);
  const t0 = performance.now();
  const started = startInstalled(pkg, cwd, path.join(home, ".teamhub"), userEnv(home, pkg.prefix));
  try {
    const deadline = Date.now() + 60_000;
    while (!fs.existsSync(started.hubFile)) {
      check(started.child.exitCode === null, `the hub runs:\n${started.output()}`);
      check(Date.now() < deadline, `the hub wrote hub.json:\n${started.output()}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const { url } = JSON.parse(fs.readFileSync(started.hubFile, "utf8")) as { url: string };
    const health = (await (await answers(`${url}/api/health`, deadline)).json()) as { ok: boolean };
    const healthy = performance.now() - t0;
    check(health.ok === true, "health says ok");
    check((await (await answers(`${url}/`, deadline)).text()).includes("<html"), "the dashboard answers with its page");
    return { healthy, dashboard: performance.now() - t0 };
  } finally {
    started.child.kill("SIGTERM");
    await started.exited;
  }
}

export default async function packageBench(): Promise<void> {
  await inTempDir(async (dir) => {
    const reuse = process.env.TEAMHUB_BENCH_PACKAGE;
    const pkg = reuse ? installedAt(reuse) : packAndInstall(dir);
    const hub: number[] = [];
    const dashboard: number[] = [];
    const floor: number[] = [];
    // Alternating, after one warm-up of each (the page cache then holds both), so load touches both alike.
    for (let i = -1; i < RUNS; i++) {
      const h = await packageStart(pkg, dir, i + 1);
      const f = await floorStart();
      if (i < 0) continue;
      hub.push(h.healthy);
      dashboard.push(h.dashboard);
      floor.push(f);
    }
    const ratio = median(hub) / median(floor);
    console.log(
      `package.start: installed \`teamhub start\` (new HOME) to healthy median ${ms(median(hub))}, dashboard ${ms(median(dashboard))}; ` +
        `node http.createServer().listen(0) to its first answer ${ms(median(floor))}; ratio ${ratio.toFixed(1)}x over ${RUNS} runs ` +
        `${target(`healthy < ${HEALTHY_WITHIN_MS / 1000} s`, median(hub) < HEALTHY_WITHIN_MS)}; ` +
        `package ${(fs.statSync(pkg.tarball).size / 1024 / 1024).toFixed(1)} MB packed, ${mb(sizeOf(pkg.dir))} installed`,
    );
  });
}
