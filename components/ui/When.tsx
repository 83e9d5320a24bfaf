import { ago } from "@/lib/relative-time.ts";

/** A timestamp as "5 min ago", with the exact local time on hover. */
export function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {ago(at)}
    </time>
  );
}
