import type { ReaderSummary, ReadRecord } from "@/lib/api/artifacts.ts";
import { When } from "../ui/When.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

type Column = "reader" | "version" | "at" | "count";
const valueOf = (r: ReaderSummary, key: Column): SortValue =>
  key === "reader" ? r.reader : key === "version" ? r.lastVersion : key === "at" ? r.lastAt.getTime() : r.reads;

/** Who read which version when: per reader the latest read (and whether it is behind the current version), then every read. */
export function ArtifactReaders({ readers, reads, current }: { readers: ReaderSummary[]; reads: ReadRecord[]; current: number | null }) {
  const { rows, header } = useSort<ReaderSummary, Column>(readers, valueOf);
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
                v{r.lastVersion}
                {current !== null && r.lastVersion < current && <span className="badge behind">behind v{current}</span>}
              </td>
              <td>
                <When at={r.lastAt} />
              </td>
              <td className="num">{r.reads}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="readers-total">
            <td colSpan={3}>
              {readers.length} reader{readers.length === 1 ? "" : "s"}
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
