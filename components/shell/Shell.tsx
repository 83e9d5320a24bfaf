"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { api } from "@/lib/api/endpoints/index.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { useApprovals } from "@/lib/queries/approvals.ts";
import { useUnread } from "@/lib/queries/chat.ts";
import { keys } from "@/lib/queries/keys.ts";
import { CommandPalette } from "./CommandPalette.tsx";
import { useLive } from "./LiveProvider.tsx";
import { useTeam } from "./TeamProvider.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { NotifyToggle } from "./NotifyToggle.tsx";

export const PAGES = [
  { href: "/", label: "Overview" },
  { href: "/sessions", label: "Sessions" },
  { href: "/inbox", label: "Inbox" },
  { href: "/approvals", label: "Approvals" },
  { href: "/artifacts", label: "Artifacts" },
  { href: "/canvas", label: "Canvas" },
  { href: "/knowledge", label: "Knowledge" },
  { href: "/pipelines", label: "Pipelines" },
  { href: "/snapshots", label: "Snapshots" },
  { href: "/budgets", label: "Budgets" },
  { href: "/settings", label: "Settings" },
] as const;

const isCurrent = (path: string, href: string) => (href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`));

/** Alt+1…9 and Alt+0 (the tenth) jump to a page, so the dashboard can be driven from the keyboard. */
function usePageShortcuts() {
  const router = useRouter();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const n = e.key === "0" ? 10 : Number(e.key);
      if (!e.altKey || !Number.isInteger(n) || n < 1 || n > PAGES.length) return;
      e.preventDefault();
      router.push(PAGES[n - 1].href);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router]);
}

export function Shell({ children }: { children: ReactNode }) {
  const path = usePathname();
  const { team, setTeam } = useTeam();
  const live = useLive();
  const teams = useQuery({ queryKey: keys.teams(), queryFn: () => apiCall(api.teams.list, {}) });
  const waiting = useApprovals(team, "pending").data?.length ?? 0;
  const unread = useUnread(team).data?.unread ?? 0;
  /** The count a page's nav link carries, and what it says to a screen reader. */
  const badges: Record<string, { n: number; label: string; testId: string }> = {
    "/approvals": { n: waiting, label: "waiting", testId: "approvals-waiting" },
    "/inbox": { n: unread, label: "unread", testId: "inbox-unread" },
  };
  usePageShortcuts();
  const names = [...new Set(["default", team, ...(teams.data ?? []).map((t) => t.id)])];
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/" className="brand">
          Team Hub
        </Link>
        <nav aria-label="pages">
          {PAGES.map((p, i) => (
            <Link key={p.href} href={p.href} aria-current={isCurrent(path, p.href) ? "page" : undefined} title={`Alt+${(i + 1) % 10}`}>
              {p.label}
              {badges[p.href]?.n > 0 && (
                <span className="nav-count" aria-label={`${badges[p.href].n} ${badges[p.href].label}`} data-testid={badges[p.href].testId}>
                  {badges[p.href].n}
                </span>
              )}
            </Link>
          ))}
        </nav>
        <span className="spacer" />
        <label className="muted">
          team{" "}
          <select aria-label="team" value={team} onChange={(e) => setTeam(e.target.value)}>
            {names.map((id) => (
              <option key={id}>{id}</option>
            ))}
          </select>
        </label>
        <span className={`live live-${live.state === "live" ? "on" : live.state === "offline" ? "off" : "wait"}`} data-testid="live" role="status">
          <span className="dot" /> {live.state}
        </span>
        <CommandPalette team={team} pages={PAGES} />
        <NotifyToggle />
        <ThemeToggle />
      </header>
      <main id="main">{children}</main>
      <div className="toasts" role="region" aria-label="alerts" aria-live="polite">
        {live.alerts.map((a) => (
          <div key={a.id} className="toast" data-testid="alert">
            <Link href={a.href} onClick={() => live.dismiss(a.id)}>
              <strong>{a.title}</strong> <span className="muted">{a.body}</span>
            </Link>
            <button type="button" className="ghost" aria-label={`dismiss: ${a.title}`} onClick={() => live.dismiss(a.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </>
  );
}
