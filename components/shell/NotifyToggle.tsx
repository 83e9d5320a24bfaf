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
      {on ? "🔔" : "🔕"}
    </button>
  );
}
