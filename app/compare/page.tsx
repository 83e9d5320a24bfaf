import { CompareView } from "@/components/code/CompareView.tsx";

/** `/compare?team=&a=&b=`: two hub branches' code, e.g. a run and its replay (docs/worktrees.md#compare). */
export default async function Page({ searchParams }: { searchParams: Promise<{ team?: string; a?: string; b?: string }> }) {
  const { team, a = "", b = "" } = await searchParams;
  return <CompareView key={`${team}:${a}:${b}`} team={team} a={a} b={b} />;
}
