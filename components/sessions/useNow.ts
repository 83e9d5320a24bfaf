"use client";

import { useEffect, useState } from "react";

/** The current time, ticking every `ms`, for countdowns and "… ago" labels that must move on their own. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
