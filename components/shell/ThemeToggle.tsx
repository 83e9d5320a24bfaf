"use client";

import { useEffect, useState } from "react";

type Theme = "system" | "light" | "dark";
const KEY = "teamhub.theme";
const NEXT: Record<Theme, Theme> = { system: "light", light: "dark", dark: "system" };

/** Light, dark, or whatever the system prefers; remembered per browser. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => setTheme((window.localStorage.getItem(KEY) as Theme | null) ?? "system"), []);
  useEffect(() => {
    if (theme === "system") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", theme);
  }, [theme]);
  const change = () => {
    const next = NEXT[theme];
    window.localStorage.setItem(KEY, next);
    setTheme(next);
  };
  return (
    <button type="button" className="ghost" onClick={change} aria-label={`theme: ${theme} (change)`} data-testid="theme">
      {theme === "dark" ? "☾" : theme === "light" ? "☀" : "◐"} <span className="theme-name">{theme === "system" ? "auto" : theme}</span>
    </button>
  );
}
