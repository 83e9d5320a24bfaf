/** Shown wherever a session appears when its process runs outside the OS sandbox (docs/security.md#sandbox): it can see everything the hub can. */
export function SandboxBadge({ sandbox }: { sandbox: "bubblewrap" | "none" | null }) {
  if (sandbox !== "none") return null;
  return (
    <span
      className="badge unsandboxed"
      data-testid="not-sandboxed"
      title="bubblewrap could not run on this machine: this session's process sees all the hub's files"
    >
      not sandboxed
    </span>
  );
}
