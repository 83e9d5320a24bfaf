import type { ReadRecord } from "@/lib/api/artifacts.ts";
import { When } from "../ui/When.tsx";

/** Who read which version when: per reader the latest read (and whether it is behind the current version), then every read. */
export function ArtifactReaders({ reads, current }: { reads: ReadRecord[]; current: number | null }) {
  const latest = new Map<string, ReadRecord & { count: number }>();
  for (const r of reads) {
    const seen = latest.get(r.reader);
    if (seen) seen.count += 1;
    else latest.set(r.reader, { ...r, count: 1 });
  }
  return (
    <>
      <table data-testid="readers">
        <thead>
          <tr>
            <th>Reader</th>
            <th>Last read</th>
            <th>When</th>
            <th>Reads</th>
          </tr>
        </thead>
        <tbody>
          {[...latest.values()].map((r) => (
            <tr key={r.reader} data-testid={`reader-${r.reader}`}>
              <td>{r.reader}</td>
              <td>
                v{r.version}
                {current !== null && r.version < current && <span className="badge behind">behind v{current}</span>}
              </td>
              <td>
                <When at={r.at} />
              </td>
              <td>{r.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details className="all-reads">
        <summary>All reads ({reads.length})</summary>
        <ul className="plain">
          {reads.map((r, i) => (
            <li key={i}>
              {r.reader} read v{r.version} <When at={r.at} />
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}
