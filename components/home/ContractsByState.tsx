const ORDER = ["pending", "ready", "in_progress", "completed", "failed"] as const;

export function ContractsByState({ counts }: { counts: Record<string, number> }) {
  return (
    <div className="states">
      {ORDER.map((s) => (
        <div key={s} className="state" data-testid={`state-${s}`}>
          <div className="n" style={{ color: `var(--${s})` }}>
            {counts[s] ?? 0}
          </div>
          <div className="label">{s.replace("_", " ")}</div>
        </div>
      ))}
    </div>
  );
}
