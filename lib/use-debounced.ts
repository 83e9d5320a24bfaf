import { useEffect, useState } from "react";

/**
 * The value once it has stopped changing for `ms`: typing asks the hub once per pause, not per key.
 * @example const filters = useDebounced(draft, 400);
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}
