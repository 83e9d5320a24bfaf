"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { api } from "@/lib/api/endpoints/index.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { keys } from "@/lib/queries/keys.ts";
import { rankEntries, type PaletteEntry } from "./palette-match.ts";
import { statusLabel } from "../ui/StatusBadge.tsx";

const enc = encodeURIComponent;
/** How many of each list the palette searches. */
const PALETTE = { limit: 500 };

/** The team's sessions, contracts and artifacts, fetched when the palette opens (not on every page). */
function useEntries(team: string, open: boolean, pages: readonly { href: string; label: string }[]): PaletteEntry[] {
  const sessions = useQuery({ queryKey: [...keys.sessions(team), "palette"], queryFn: () => apiCall(api.sessions.list, { team, limit: 500 }), enabled: open });
  const contracts = useQuery({
    queryKey: keys.contracts.list(team, PALETTE),
    queryFn: () => apiCall(api.contracts.list, { team, ...PALETTE }),
    enabled: open,
  });
  const artifacts = useQuery({
    queryKey: keys.artifacts.list(team, PALETTE),
    queryFn: () => apiCall(api.artifacts.list, { team, ...PALETTE }),
    enabled: open,
  });
  return useMemo(
    () => [
      ...pages.map((p): PaletteEntry => ({ kind: "page", label: p.label, detail: "page", href: p.href })),
      ...(sessions.data ?? []).map((s): PaletteEntry => ({
        kind: "session",
        label: s.name,
        detail: `session · ${statusLabel(s.status)}`,
        href: `/sessions/${enc(s.name)}`,
      })),
      ...(contracts.data?.items ?? []).map((c): PaletteEntry => ({
        kind: "contract",
        label: c.id,
        detail: `contract · ${c.title}`,
        href: `/canvas?contract=${enc(c.id)}`,
      })),
      ...(artifacts.data?.items ?? []).map((a): PaletteEntry => ({
        kind: "artifact",
        label: a.id,
        detail: `artifact · ${a.type}`,
        href: `/artifacts/${enc(a.id)}`,
      })),
    ],
    [pages, sessions.data, contracts.data, artifacts.data],
  );
}

/**
 * Ctrl+K (⌘K on a Mac) opens a search over the pages and the team's sessions, contracts and artifacts;
 * arrows choose, Enter goes there, Escape closes. A native modal dialog, so focus stays inside while it is open.
 */
export function CommandPalette({ team, pages }: { team: string; pages: readonly { href: string; label: string }[] }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const entries = useEntries(team, open, pages);
  const shown = useMemo(() => rankEntries(query, entries), [query, entries]);

  const show = () => {
    setQuery("");
    setActive(0);
    setOpen(true);
    dialog.current?.showModal();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const close = () => dialog.current?.close();
  const go = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    close();
    router.push(entry.href);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (shown.length === 0 ? 0 : (i + step + shown.length) % shown.length));
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(shown[active]);
    }
  };
  return (
    <>
      <button
        type="button"
        className="ghost palette-open"
        onClick={show}
        aria-label="go to a page, session, contract or artifact (Ctrl+K)"
        data-testid="palette-open"
      >
        ⌕ <kbd>Ctrl K</kbd>
      </button>
      <dialog ref={dialog} className="palette" aria-label="Go to" onClose={() => setOpen(false)} onClick={(e) => e.target === dialog.current && close()}>
        <input
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[active] ? `palette-${active}` : undefined}
          aria-label="page, session, contract or artifact"
          placeholder="Go to a page, session, contract or artifact…"
          value={query}
          autoFocus
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id="palette-list" role="listbox" aria-label="matches" className="palette-list">
          {shown.map((entry, i) => (
            <li
              key={`${entry.kind}:${entry.label}`}
              id={`palette-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseEnter={() => setActive(i)}
              onClick={() => go(entry)}
            >
              <span className="palette-label">{entry.label}</span> <span className="muted">{entry.detail}</span>
            </li>
          ))}
          {shown.length === 0 && <li className="muted">Nothing matches.</li>}
        </ul>
      </dialog>
    </>
  );
}
