"use client";

import Link from "next/link";
import { useRoster } from "@/lib/queries/roster.ts";

const enc = encodeURIComponent;

/** A contract, wherever it is named: its place on the canvas, which opens its panel. */
export function ContractLink({ id, className = "mono" }: { id: string; className?: string }) {
  return (
    <Link href={`/canvas?contract=${enc(id)}`} className={className}>
      {id}
    </Link>
  );
}

/** An artifact, wherever it is named: its page (`version` picks one of its versions there). */
export function ArtifactLink({ id, version, className = "mono" }: { id: string; version?: number; className?: string }) {
  return (
    <Link href={`/artifacts/${enc(id)}${version ? `?version=${version}` : ""}`} className={className}>
      {id}
      {version ? `@v${version}` : ""}
    </Link>
  );
}

/**
 * A member, wherever it is named: the page of the session that keeps it (from the team's roster, already cached by
 * the pages that show members); a name with no session stays text.
 */
export function MemberLink({ team, name }: { team: string; name: string }) {
  const session = useRoster(team).data?.find((m) => m.name === name)?.sessionId;
  return session ? <Link href={`/sessions/${enc(session)}`}>{name}</Link> : <>{name}</>;
}
