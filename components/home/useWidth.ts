"use client";

import { useLayoutEffect, useRef, useState } from "react";

/** The rendered width of an element, kept current on resize, so a chart draws at real pixels (text never scales). */
export function useWidth<T extends HTMLElement>(initial = 480) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([e]) => setWidth(Math.max(200, Math.floor(e.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
