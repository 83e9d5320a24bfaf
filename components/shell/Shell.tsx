"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { api } from "@/lib/api/endpoints/index.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { usePendingCount } from "@/lib/queries/approvals.ts";
import { useUnread } from "@/lib/queries/chat.ts";
import { keys } from "@/lib/queries/keys.ts";
import { CommandPalette } from "./CommandPalette.tsx";
import { useLive } from "./LiveProvider.tsx";
import { useTeam } from "./TeamProvider.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { Toasts } from "./Toasts.tsx";
import { NotifyToggle } from "./NotifyToggle.tsx";

export const PAGES = [
  { href: "/", label: "Overview" },
  { href: "/sessions", label: "Sessions" },
  { href: "/inbox", label: "Inbox" },
  { href: "/approvals", label: "Approvals" },
  { href: "/artifacts", label: "Artifacts" },
  { href: "/canvas", label: "Canvas" },
  { href: "/pipelines", label: "Pipelines" },
  { href: "/snapshots", label: "Snapshots" },
  { href: "/budgets", label: "Budgets" },
  { href: "/settings", label: "Settings" },
  // After the ten with a shortcut, so the ones people learned stay where they were; the palette (Ctrl/⌘+K) reaches it.
  { href: "/knowledge", label: "Knowledge" },
] as const;

const isCurrent = (path: string, href: string) => (href === "/" ? path === "/" : path === href || path.startsWith(`${href}/`));

/** Alt+1…9 and Alt+0 (the tenth) jump to the first ten pages, so the dashboard can be driven from the keyboard. */
function usePageShortcuts() {
  const router = useRouter();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const n = e.key === "0" ? 10 : Number(e.key);
      if (!e.altKey || !Number.isInteger(n) || n < 1 || n > Math.min(10, PAGES.length)) return;
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
  const waiting = usePendingCount(team).data?.count ?? 0;
  const unread = useUnread(team).data?.unread ?? 0;
  /** The count a page's nav link carries, and what it says to a screen reader. */
  const badges: Record<string, { n: number; label: string; testId: string }> = {
    "/approvals": { n: waiting, label: "waiting", testId: "approvals-waiting" },
    "/inbox": { n: unread, label: "unread", testId: "inbox-unread" },
  };
  usePageShortcuts();
  // On a phone the pages and the team picker sit behind a menu button (docs/dashboard-phone.md). The menu belongs to
  // the page it was opened on, so any navigation (a link, Alt+number, the palette) closes it.
  const [menuAt, setMenuAt] = useState<string | null>(null);
  const menuOpen = menuAt === path;
  const counted = waiting + unread;
  const names = [...new Set(["default", team, ...(teams.data ?? []).map((t) => t.id)])];
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className={menuOpen ? "top menu-open" : "top"} onKeyDown={(e) => e.key === "Escape" && setMenuAt(null)}>
        <Link href="/" className="brand">
          Team Hub
        </Link>
        <div className="header-menu" id="header-menu">
          <nav aria-label="pages">
            {PAGES.map((p, i) => (
              <Link
                key={p.href}
                href={p.href}
                aria-current={isCurrent(path, p.href) ? "page" : undefined}
                title={i < 10 ? `Alt+${(i + 1) % 10}` : undefined}
                onClick={() => setMenuAt(null)}
              >
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
        </div>
        <span className={`live live-${live.state === "live" ? "on" : live.state === "offline" ? "off" : "wait"}`} data-testid="live" role="status">
          <span className="dot" /> {live.state}
        </span>
        <CommandPalette team={team} pages={PAGES} />
        <NotifyToggle />
        <ThemeToggle />
        <button
          type="button"
          className="ghost menu-button"
          aria-label="pages and team"
          aria-expanded={menuOpen}
          aria-controls="header-menu"
          onClick={() => setMenuAt(menuOpen ? null : path)}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d={menuOpen ? "M6 6l12 12M18 6L6 18" : "M4 7h16M4 12h16M4 17h16"} />
          </svg>
          {counted > 0 && (
            <span className="nav-count" aria-label={`${counted} waiting or unread`} data-testid="menu-count">
              {counted}
            </span>
          )}
        </button>
      </header>
      {/* The open menu covers the page: a tap beside it closes it rather than acting on what is under it. */}
      {menuOpen && <div className="menu-backdrop" aria-hidden="true" onClick={() => setMenuAt(null)} />}
      <main id="main">{children}</main>
      <Toasts alerts={live.alerts} dismiss={live.dismiss} />
    </>
  );
}
