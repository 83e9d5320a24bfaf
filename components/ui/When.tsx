import { ago } from "@/lib/relative-time.ts";

/** A timestamp as "5 min ago", with the exact local time on hover. */
export function When({ at }: { at: Date | string }) {
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString()}>
      {ago(date)}
    </time>
  );
}
