"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { usePaletteEntries } from "./palette-entries.ts";
import { rankEntries, type PaletteAction, type PaletteEntry } from "./palette-match.ts";
import { ASKS, usePaletteActions, type Outcome } from "./PaletteActions.tsx";

/** An action waiting for what it asks (a snapshot's label), typed in the palette's own input. */
type Asking = { action: PaletteAction; label: string; prompt: string };

/**
 * Ctrl+K (⌘K on a Mac) opens a search over the pages and everything of the team, and its actions
 * (docs/dashboard.md#the-palette); arrows choose, Enter goes there or does it, Escape closes. An action that needs a
 * word (a snapshot's label) asks for it in the same input. A native modal dialog, so focus stays inside while open.
 */
export function CommandPalette({ team, pages }: { team: string; pages: readonly { href: string; label: string }[] }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [running, setRunning] = useState(false);
  const entries = usePaletteEntries(team, open, pages);
  const { run, dialogs } = usePaletteActions(team);
  const shown = useMemo(() => (asking ? [] : rankEntries(query, entries)), [query, entries, asking]);

  const show = () => {
    setQuery("");
    setActive(0);
    setAsking(null);
    setOutcome(null);
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
  const act = async (action: PaletteAction, arg?: string) => {
    setRunning(true);
    const r = await run(action, arg);
    setRunning(false);
    setAsking(null);
    setQuery("");
    // An action that opened its form hands over to it.
    if (r === null) close();
    else setOutcome(r);
  };
  const choose = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    if (entry.href) {
      close();
      router.push(entry.href);
      return;
    }
    if (!entry.action) return;
    const ask = ASKS[entry.action.type]?.(new Date());
    if (ask) {
      setAsking({ action: entry.action, label: entry.label, prompt: ask.prompt });
      setQuery(ask.initial);
      setOutcome(null);
      return;
    }
    void act(entry.action);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (asking) {
      if (e.key === "Enter") {
        e.preventDefault();
        if (!running) void act(asking.action, query);
      } else if (e.key === "Escape") {
        // Back to the search, not out of the palette.
        e.preventDefault();
        setAsking(null);
        setQuery("");
      }
      return;
    }
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (shown.length === 0 ? 0 : (i + step + shown.length) % shown.length));
    } else if (e.key === "Enter") {
      e.preventDefault();
      choose(shown[active]);
    }
  };
  return (
    <>
      <button type="button" className="ghost palette-open" onClick={show} aria-label="find or do anything (Ctrl+K)" data-testid="palette-open">
        ⌕ <kbd>Ctrl K</kbd>
      </button>
      <dialog ref={dialog} className="palette" aria-label="Go to" onClose={() => setOpen(false)} onClick={(e) => e.target === dialog.current && close()}>
        {asking && (
          <p className="palette-asking" data-testid="palette-asking">
            <strong>{asking.label}</strong> — {asking.prompt}, then Enter (Escape goes back)
          </p>
        )}
        <input
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[active] ? `palette-${active}` : undefined}
          aria-label={asking ? asking.prompt : "page, session, member, contract, artifact, pipeline, snapshot, message or action"}
          placeholder={asking ? asking.prompt : "Find anything, or do something (“take snapshot”, “allow”)…"}
          value={query}
          autoFocus
          disabled={running}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {outcome && (
          <p className={outcome.ok ? "palette-outcome" : "palette-outcome form-error"} role="status" data-testid="palette-outcome">
            {outcome.text}{" "}
            {outcome.href && (
              <Link href={outcome.href} onClick={close}>
                open
              </Link>
            )}
          </p>
        )}
        {!asking && (
          <ul id="palette-list" role="listbox" aria-label="matches" className="palette-list">
            {shown.map((entry, i) => (
              <li
                key={`${entry.kind}:${entry.label}:${entry.detail}`}
                id={`palette-${i}`}
                role="option"
                aria-selected={i === active}
                className={`palette-${entry.kind}`}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(entry)}
              >
                <span className="palette-label">{entry.label}</span> <span className="muted">{entry.detail}</span>
              </li>
            ))}
            {shown.length === 0 && <li className="muted">Nothing matches.</li>}
          </ul>
        )}
      </dialog>
      {dialogs}
    </>
  );
}
