"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { DecideButtons } from "../approvals/DecideButtons.tsx";
import type { Alert } from "./alerts.ts";

/** The newest this many alerts show at once; the others wait behind a count. */
const SHOWN = 3;

/**
 * Which toasts would lie over what they announce: the page marks what it shows with `data-alert-key` (the approval's
 * card or row, the session's problem, the budget's row), and a toast whose box meets such an element steps aside
 * (it stays in its place in the stack, unseen, so the others do not move). Checked on scroll, resize and every
 * 400 ms, since the page's content changes under it.
 */
function useCovering(keys: string[]): Set<string> {
  const [covering, setCovering] = useState<Set<string>>(new Set());
  const wanted = keys.join("\n");
  useEffect(() => {
    const list = wanted ? wanted.split("\n") : [];
    const meets = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const check = () => {
      const next = new Set<string>();
      for (const key of list) {
        const toast = document.querySelector(`.toasts [data-alert-for="${CSS.escape(key)}"]`)?.getBoundingClientRect();
        if (!toast) continue;
        for (const el of document.querySelectorAll(`[data-alert-key="${CSS.escape(key)}"]`)) {
          const r = el.getBoundingClientRect();
          if (r.width > 0 && meets(r, toast)) next.add(key);
        }
      }
      setCovering((old) => (old.size === next.size && [...next].every((k) => old.has(k)) ? old : next));
    };
    check();
    const timer = setInterval(check, 400);
    window.addEventListener("scroll", check, { passive: true, capture: true });
    window.addEventListener("resize", check);
    return () => {
      clearInterval(timer);
      window.removeEventListener("scroll", check, { capture: true });
      window.removeEventListener("resize", check);
    };
  }, [wanted]);
  return covering;
}

/**
 * The alerts as toasts (docs/dashboard.md#alerts): one line each, cut with its whole text in the tooltip; an approval's
 * with Allow and Deny; the newest three, with a count of the others that opens them. A toast never lies over what it
 * announces (the approval's card with its Allow and Deny): where it would, it steps aside.
 */
export function Toasts({ alerts, dismiss }: { alerts: Alert[]; dismiss: (id: number) => void }) {
  const [all, setAll] = useState(false);
  const shown = all ? alerts : alerts.slice(-SHOWN);
  const behind = alerts.length - shown.length;
  const covering = useCovering(shown.map((a) => a.key));
  return (
    <div className="toasts" role="region" aria-label="alerts" aria-live="polite">
      {(behind > 0 || (all && alerts.length > SHOWN)) && (
        <button type="button" className="toast-count" aria-expanded={all} onClick={() => setAll(!all)} data-testid="alert-count">
          {all ? `Show the newest ${SHOWN}` : `+${behind} more alert${behind === 1 ? "" : "s"}`}
        </button>
      )}
      {shown.map((a) => (
        <div
          key={a.id}
          data-alert-for={a.key}
          className={`toast${a.approval ? " toast-approval" : ""}${covering.has(a.key) ? " toast-aside" : ""}`}
          aria-hidden={covering.has(a.key) || undefined}
          data-testid="alert"
        >
          <Link href={a.href} className="toast-text" title={`${a.title}\n${a.body}`} onClick={() => dismiss(a.id)}>
            <strong>{a.title}</strong> <span className="muted">{a.body}</span>
          </Link>
          {a.approval && a.team && (
            <DecideButtons team={a.team} session={a.session} approvalId={a.approval.id} toolName={a.approval.toolName} input={a.approval.input} />
          )}
          <button type="button" className="ghost toast-close" aria-label={`dismiss: ${a.title}`} onClick={() => dismiss(a.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
