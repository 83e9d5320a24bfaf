import type { ReadRecord } from "@/lib/api/artifacts.ts";
import { When } from "../ui/When.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

type Reader = ReadRecord & { count: number };
type Column = "reader" | "version" | "at" | "count";
const valueOf = (r: Reader, key: Column): SortValue => (key === "reader" ? r.reader : key === "version" ? r.version : key === "at" ? r.at.getTime() : r.count);

/** Who read which version when: per reader the latest read (and whether it is behind the current version), then every read. */
export function ArtifactReaders({ reads, current }: { reads: ReadRecord[]; current: number | null }) {
  const latest = new Map<string, Reader>();
  for (const r of reads) {
    const seen = latest.get(r.reader);
    if (seen) seen.count += 1;
    else latest.set(r.reader, { ...r, count: 1 });
  }
  const { rows, header } = useSort<Reader, Column>([...latest.values()], valueOf);
  return (
    <>
      <table className="sortable" data-testid="readers">
        <thead>
          <tr>
            {header("Reader", "reader")}
            {header("Last read", "version")}
            {header("When", "at")}
            {header("Reads", "count", true)}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.reader} data-testid={`reader-${r.reader}`}>
              <td>{r.reader}</td>
              <td>
                v{r.version}
                {current !== null && r.version < current && <span className="badge behind">behind v{current}</span>}
              </td>
              <td>
                <When at={r.at} />
              </td>
              <td className="num">{r.count}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="readers-total">
            <td colSpan={3}>
              {latest.size} reader{latest.size === 1 ? "" : "s"}
            </td>
            <td className="num">{reads.length}</td>
          </tr>
        </tfoot>
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
