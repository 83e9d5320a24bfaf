"use client";

import { useEffect, useState } from "react";
import { SOUND_KEY } from "../shell/LiveProvider.tsx";

/** A short beep with each alert (approvals, failures), for a dashboard left open in another window. */
export function SoundToggle() {
  const [on, setOn] = useState(false);
  useEffect(() => setOn(window.localStorage.getItem(SOUND_KEY) === "on"), []);
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => {
          window.localStorage.setItem(SOUND_KEY, e.target.checked ? "on" : "off");
          setOn(e.target.checked);
        }}
      />{" "}
      Play a sound with each alert (in this browser)
    </label>
  );
}
