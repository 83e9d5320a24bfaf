"use client";

import { useState } from "react";
import type { TokenView } from "@/lib/api/tokens.ts";
import { useIssueToken, useRevokeToken, useTokens } from "@/lib/queries/settings.ts";
import { ListState } from "../ui/Card.tsx";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { CopyButton } from "../ui/CopyButton.tsx";
import { When } from "../ui/When.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

type Column = "principal" | "kind" | "label" | "issued";
const valueOf = (t: TokenView, key: Column): SortValue => (key === "issued" ? t.createdAt.getTime() : key === "label" ? t.label || null : t[key]);

/** The operator's own token comes from the data directory; revoking it here would lock the CLI out. */
const revocable = (t: TokenView) => t.kind !== "operator";

function IssueForm() {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<"member" | "agent">("member");
  const [label, setLabel] = useState("");
  const issue = useIssueToken();
  return (
    <form
      className="stack tight"
      aria-label="issue a token"
      onSubmit={(e) => {
        e.preventDefault();
        issue.mutate({ name: name.trim(), kind, ...(label.trim() ? { label: label.trim() } : {}) });
      }}
    >
      <div className="row">
        <label className="field">
          <span>Name</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-label="token name"
            placeholder="api-dev"
            aria-invalid={issue.isError || undefined}
          />
        </label>
        <label className="field">
          <span>Kind</span>
          <select value={kind} onChange={(e) => setKind(e.target.value as "member" | "agent")} aria-label="token kind">
            <option value="member">member</option>
            <option value="agent">agent</option>
          </select>
        </label>
        <label className="field">
          <span>Label (optional)</span>
          <input value={label} onChange={(e) => setLabel(e.target.value)} aria-label="token label" placeholder="laptop" />
        </label>
        <button type="submit" className="primary" disabled={issue.isPending || name.trim() === ""}>
          Issue token
        </button>
      </div>
      {issue.error && (
        <p className="form-error" role="alert">
          {issue.error.message}
        </p>
      )}
      {issue.data && (
        <div className="issued" role="status" data-testid="issued-token">
          <p>
            New token for <strong>{issue.data.principal}</strong> ({issue.data.kind}). It is shown only now: copy it.
          </p>
          <div className="row">
            <code className="secret">{issue.data.token}</code>
            <CopyButton text={issue.data.token} label={`token of ${issue.data.principal}`} />
            <button type="button" className="ghost" onClick={() => issue.reset()}>
              Done
            </button>
          </div>
        </div>
      )}
    </form>
  );
}

export function MemberTokens() {
  const tokens = useTokens();
  const revoke = useRevokeToken();
  const { rows, header } = useSort<TokenView, Column>(tokens.data ?? [], valueOf);
  return (
    <div className="stack">
      <IssueForm />
      <ListState loading={tokens.isLoading} error={tokens.error} empty={rows.length === 0} hint="No tokens yet." />
      {rows.length > 0 && (
        // Wider than a phone screen: the table scrolls inside its card instead of widening the page.
        <div className="table-scroll">
          <table className="sortable" data-testid="tokens">
            <thead>
              <tr>
                {header("Principal", "principal")}
                {header("Kind", "kind")}
                {header("Label", "label")}
                {header("Issued", "issued")}
                <th aria-label="actions" />
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={`${t.principal} ${t.label} ${t.createdAt.getTime()}`} data-testid={`token-${t.principal}`}>
                  <td>{t.principal}</td>
                  <td>{t.kind}</td>
                  <td className="mono">{t.label || "—"}</td>
                  <td>
                    <When at={t.createdAt} />
                  </td>
                  <td>
                    {revocable(t) && (
                      <ConfirmButton
                        label={`Revoke`}
                        danger
                        question={
                          <>
                            Revoke the token
                            {t.label ? (
                              <>
                                {" "}
                                labelled <code>{t.label}</code>
                              </>
                            ) : (
                              " without a label"
                            )}{" "}
                            of <strong>{t.principal}</strong>? Whatever uses it (a Claude Code setup, a running session) is refused from then on.
                          </>
                        }
                        onConfirm={() => revoke.mutate({ name: t.principal, label: t.label })}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoke.error && (
        <p className="form-error" role="alert">
          {revoke.error.message}
        </p>
      )}
    </div>
  );
}
