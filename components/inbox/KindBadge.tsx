/** The kind of a message (dm, broadcast, ask, reply, or a notice from the hub). */
export function KindBadge({ kind }: { kind: string }) {
  return <span className={`kind kind-${kind}`}>{kind}</span>;
}
