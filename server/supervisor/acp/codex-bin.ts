import { createRequire } from "node:module";
import path from "node:path";
import { DomainError } from "../../errors.ts";
import { executable } from "../launch.ts";

/** How long codex-acp gets to end after SIGTERM before it is killed. */
export const CODEX_STOP_GRACE_MS = 5_000;

/**
 * CODEX_ACP_BIN, else the native binary of the pinned `@zed-industries/codex-acp` for this platform.
 * The native binary, not the npm wrapper: the wrapper does not pass signals on, so stopping it would leave codex-acp running.
 */
export function resolveCodexBin(env: Record<string, string | undefined> = process.env): string {
  if (env.CODEX_ACP_BIN) {
    if (executable(env.CODEX_ACP_BIN)) return env.CODEX_ACP_BIN;
    throw new DomainError("precondition_failed", `CODEX_ACP_BIN is '${env.CODEX_ACP_BIN}', which is not an executable file`, { field: "CODEX_ACP_BIN" });
  }
  const pkg = `@zed-industries/codex-acp-${process.platform}-${process.arch}`;
  const candidate = packageBin(pkg);
  if (candidate && executable(candidate)) return candidate;
  throw new DomainError("precondition_failed", `codex-acp was not found: install ${pkg} (with @zed-industries/codex-acp) or set CODEX_ACP_BIN to its path`, {
    field: "CODEX_ACP_BIN",
  });
}

function packageBin(pkg: string): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
    return path.join(path.dirname(manifest), "bin", process.platform === "win32" ? "codex-acp.exe" : "codex-acp");
  } catch {
    return undefined;
  }
}
