"use client";

import { useState } from "react";
import { BUDGET_PERIODS, BUDGET_SCOPES, type BudgetUnit } from "@/lib/api/budgets.ts";
import { issuesOf } from "@/lib/field-issues.ts";
import { useSetBudget } from "@/lib/queries/budgets.ts";
import { useContracts } from "@/lib/queries/home.ts";
import { useRoster } from "@/lib/queries/roster.ts";

/** Sets or changes one budget; the hub checks it and each refusal shows under the field it names. */
export function BudgetForm({ team }: { team: string }) {
  const set = useSetBudget(team);
  const roster = useRoster(team).data ?? [];
  const contracts = useContracts(team).data?.items ?? [];
  const [scope, setScope] = useState<string>("team");
  const [target, setTarget] = useState("");
  const [amount, setAmount] = useState("");
  // Tokens for subscription users, whose dollar figures are estimates (docs/budgets.md#tokens).
  const [unit, setUnit] = useState<BudgetUnit>("usd");
  const amountField = unit === "tokens" ? "amountTokens" : "amountUsd";
  const [period, setPeriod] = useState<string>("lifetime");
  const [warnAt, setWarnAt] = useState("80");
  const [onExceed, setOnExceed] = useState("fail");
  // What the target is picked from: the roster's members, or the team's contracts.
  const choices =
    scope === "member" ? roster.map((m) => ({ value: m.name, label: m.role || "member" })) : contracts.map((c) => ({ value: c.id, label: c.title }));
  const errors = new Map(issuesOf(set.error).map((i) => [i.field, i.message]));
  const note = (field: string) =>
    errors.has(field) ? (
      <span className="error" data-testid={`budget-error-${field}`}>
        {errors.get(field)}
      </span>
    ) : null;
  // Text that is not a number goes as typed, so the hub's message says what is wrong with it.
  const number = (text: string) => (text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text);
  return (
    <form
      className="stack tight"
      aria-label="set a budget"
      onSubmit={(e) => {
        e.preventDefault();
        const percent = number(warnAt);
        set.mutate({
          scope,
          ...(scope === "team" ? {} : { target: target.trim() }),
          [amountField]: number(amount),
          period,
          warnAt: typeof percent === "number" ? percent / 100 : percent,
          ...(scope === "contract" ? { onExceed } : {}),
        });
      }}
    >
      <div className="row wrap">
        <label className="field">
          <span>Scope</span>
          <select value={scope} onChange={(e) => setScope(e.target.value)} aria-label="budget scope">
            {BUDGET_SCOPES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        {scope !== "team" && (
          <label className="field">
            <span>{scope === "member" ? "Member" : "Contract id"}</span>
            <input
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              aria-label="budget target"
              list={scope === "member" ? "budget-members" : "budget-contracts"}
              autoComplete="off"
              aria-invalid={errors.has("target") || undefined}
            />
            {note("target") ??
              (target.trim() !== "" && !choices.some((c) => c.value === target.trim()) && (
                <span className="hint">{scope === "member" ? "not on the roster (yet)" : "no contract of this team has this id (yet)"}</span>
              ))}
            <datalist id={scope === "member" ? "budget-members" : "budget-contracts"}>
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </datalist>
          </label>
        )}
        <label className="field">
          <span>Unit</span>
          <select value={unit} onChange={(e) => setUnit(e.target.value as BudgetUnit)} aria-label="budget unit">
            <option value="usd">US dollars</option>
            <option value="tokens">tokens</option>
          </select>
        </label>
        <label className="field">
          <span>Amount ({unit === "tokens" ? "tokens" : "USD"})</span>
          <input
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            inputMode={unit === "tokens" ? "numeric" : "decimal"}
            aria-label="budget amount"
            aria-invalid={errors.has(amountField) || undefined}
          />
          {note(amountField)}
        </label>
        <label className="field">
          <span>Period</span>
          <select value={period} onChange={(e) => setPeriod(e.target.value)} aria-label="budget period">
            {BUDGET_PERIODS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Warn at (%)</span>
          <input
            value={warnAt}
            onChange={(e) => setWarnAt(e.target.value)}
            inputMode="numeric"
            aria-label="budget warning"
            aria-invalid={errors.has("warnAt") || undefined}
          />
          {note("warnAt")}
        </label>
        {scope === "contract" && (
          <label className="field">
            <span>When used up</span>
            <select value={onExceed} onChange={(e) => setOnExceed(e.target.value)} aria-label="when used up">
              <option value="fail">fail the contract</option>
              <option value="pause">pause instead</option>
            </select>
          </label>
        )}
        <button type="submit" className="primary" disabled={set.isPending}>
          Set budget
        </button>
      </div>
      {set.error && errors.size === 0 && (
        <p className="form-error" role="alert">
          {set.error.message}
        </p>
      )}
      {set.data && !set.error && (
        <p className="muted" role="status">
          Set: {set.data.scope === "team" ? `team ${set.data.team}` : `${set.data.scope} ${set.data.target}`}
          {set.data.unit === "tokens" ? ", in tokens" : ""}.
        </p>
      )}
    </form>
  );
}
