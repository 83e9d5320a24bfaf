/**
 * Whether sessions can run in the OS sandbox (docs/security.md#sandbox). Checked once at start by running bubblewrap
 * for real with the namespaces a session gets, because an installed `bwrap` can still be refused
 * by the kernel (user namespaces off, a container without the capability).
 */
import { spawnSync } from "node:child_process";

export type SandboxStatus = { kind: "bubblewrap"; bin: string } | { kind: "none"; reason: string };

export function checkSandbox(setting: "auto" | "off", bin: string): SandboxStatus {
  if (setting === "off") return { kind: "none", reason: "TEAMHUB_SANDBOX=off" };
  const r = spawnSync(bin, ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-ipc", "--die-with-parent", "true"], {
    encoding: "utf8",
    timeout: 10_000,
  });
  if (r.error) return { kind: "none", reason: `${bin}: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message} (install the Debian package bubblewrap)` };
  if (r.status !== 0) return { kind: "none", reason: `${bin} cannot create a sandbox here: ${(r.stderr || `exit ${r.status}`).trim()}` };
  return { kind: "bubblewrap", bin };
}
