"use client";

import { useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from "react";
import { connectLive, type LiveState } from "@/lib/ws-client.ts";
import type { WireEvent } from "@/lib/ws.ts";
import { keys } from "@/lib/queries/keys.ts";
import { nextAlerts, type Alert } from "./alerts.ts";

type Listener = (e: WireEvent) => void;
type Live = { state: LiveState; alerts: Alert[]; dismiss: (id: number) => void; subscribe: (fn: Listener) => () => void };
const LiveContext = createContext<Live>({ state: "connecting", alerts: [], dismiss: () => {}, subscribe: () => () => {} });

export const NOTIFY_KEY = "teamhub.notify";
export const SOUND_KEY = "teamhub.sound";

function beep() {
  const ctx = new AudioContext();
  const osc = ctx.createOscillator();
  osc.frequency.value = 880;
  osc.connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + 0.15);
}

/**
 * One /ws connection for the whole dashboard. Each committed event invalidates its team's
 * queries (a burst becomes one refetch), and events that need a person raise an alert: in the
 * page, and as a browser notification (with an optional sound) when the user allowed them. The
 * events that settle what an alert announced take it (and its notification) away again.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  const [alerts, setAlerts] = useState<Alert[]>([]);
  // The current alerts outside React's state too, so an event can settle them and their notifications at once.
  const shown = useRef<Alert[]>([]);
  const notifications = useRef(new Map<string, Notification>());
  const listeners = useRef(new Set<Listener>());
  const pending = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const invalidate = (scope: readonly string[]) => {
      const k = scope.join("/");
      clearTimeout(pending.current.get(k));
      pending.current.set(
        k,
        setTimeout(() => void qc.invalidateQueries({ queryKey: scope }), 100),
      );
    };
    return connectLive({
      teams: [],
      onState: (s) => {
        setState(s);
        // Back after a restart: whatever changed meanwhile is refetched.
        if (s === "live") void qc.invalidateQueries();
      },
      onEvent: (e) => {
        invalidate(e.teamId ? keys.team(e.teamId) : keys.hub());
        if (e.type === "team.created") invalidate(keys.teams());
        for (const fn of listeners.current) fn(e);
        const { alerts: next, raised, resolved } = nextAlerts(shown.current, e);
        for (const a of resolved) {
          notifications.current.get(a.key)?.close();
          notifications.current.delete(a.key);
        }
        if (!raised && resolved.length === 0) return;
        shown.current = next;
        setAlerts(next);
        if (!raised) return;
        if (window.localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window && Notification.permission === "granted") {
          // The same tag replaces an older notification about the same thing.
          notifications.current.set(raised.key, new Notification(raised.title, { body: raised.body, tag: `teamhub-${raised.key}` }));
        }
        if (window.localStorage.getItem(SOUND_KEY) === "on") beep();
      },
    });
  }, [qc]);

  const dismiss = useCallback((id: number) => {
    shown.current = shown.current.filter((a) => a.id !== id);
    setAlerts(shown.current);
  }, []);
  const subscribe = useCallback((fn: Listener) => {
    listeners.current.add(fn);
    return () => void listeners.current.delete(fn);
  }, []);
  const value = useMemo<Live>(() => ({ state, alerts, dismiss, subscribe }), [state, alerts, dismiss, subscribe]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** @example const { state } = useLive(); useLiveEvents((e) => e.type === "artifact.published" && flash(e)) */
export const useLive = () => useContext(LiveContext);

export function useLiveEvents(fn: Listener) {
  const { subscribe } = useLive();
  // The listener of the latest render, without subscribing again each time it changes.
  const listener = useEffectEvent(fn);
  useEffect(() => subscribe((e) => listener(e)), [subscribe]);
}
