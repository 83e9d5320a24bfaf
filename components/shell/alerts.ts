/** Which events deserve a person's attention right away (a notification), and what to say. */
import type { WireEvent } from "@/lib/ws.ts";

export type Alert = { id: number; title: string; body: string; href: string };

export function alertFor(e: WireEvent): Alert | null {
  const name = typeof e.payload.name === "string" ? e.payload.name : null;
  if (!name) return null;
  const href = `/sessions/${encodeURIComponent(name)}`;
  if (e.type === "session.approval_requested") {
    const input = e.payload.input as Record<string, unknown> | undefined;
    const what = typeof input?.command === "string" ? input.command : typeof input?.file_path === "string" ? input.file_path : "";
    return { id: e.id, title: `${name} needs approval`, body: `${String(e.payload.toolName)}${what ? `: ${what}` : ""}`, href };
  }
  if (e.type === "session.exited" && e.payload.status === "failed") {
    return { id: e.id, title: `${name} failed`, body: String(e.payload.reason ?? "the process ended unexpectedly"), href };
  }
  if (e.type === "session.stalled") return { id: e.id, title: `${name} stalled`, body: "no output for a while", href };
  return null;
}
