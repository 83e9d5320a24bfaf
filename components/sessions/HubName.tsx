/** A session's hub (docs/hubs.md): its id, marked "(this hub)" as Settings → Hubs marks it; "—" until a hub claims it. */
export function HubName({ hub, thisHub }: { hub: string | null; thisHub: string | null }) {
  if (hub === null) return <>—</>;
  return (
    <>
      <span className="mono">{hub}</span>
      {/* A narrow column breaks the line before the mark, never inside it. */}
      {hub === thisHub && <span className="muted"> (this&nbsp;hub)</span>}
    </>
  );
}
