/** A JSON value, pretty-printed and scrollable. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
