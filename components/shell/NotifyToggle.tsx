"use client";

import { useEffect, useState } from "react";
import { NOTIFY_KEY } from "./LiveProvider.tsx";

/** Browser notifications for approvals and failures: off until the user asks for them. */
export function NotifyToggle() {
  const [on, setOn] = useState(false);
  useEffect(() => setOn(window.localStorage.getItem(NOTIFY_KEY) === "on"), []);
  const toggle = async () => {
    if (!on && "Notification" in window && Notification.permission !== "granted") {
      if ((await Notification.requestPermission()) !== "granted") return;
    }
    window.localStorage.setItem(NOTIFY_KEY, on ? "off" : "on");
    setOn(!on);
  };
  return (
    <button type="button" className="ghost" onClick={() => void toggle()} aria-pressed={on} aria-label="browser notifications for approvals and failures">
      <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.7 21a2 2 0 0 1-3.4 0" />
        {!on && <path d="M3 3l18 18" />}
      </svg>
    </button>
  );
}
