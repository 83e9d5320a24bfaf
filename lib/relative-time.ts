/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 d ago": how long ago a timestamp was, at a glance. */
export function ago(at: string | Date, now: number = Date.now()): string {
  const s = Math.round((now - new Date(at).getTime()) / 1000);
  if (s < 5) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}
