"use client";

import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { Dependency } from "@/lib/api/contracts.ts";
import { issuesOf, type FieldIssue } from "@/lib/field-issues.ts";
import { useArtifactTypes } from "@/lib/queries/artifacts.ts";
import { useCreateContract } from "@/lib/queries/graph.ts";

const EMPTY = { id: "", title: "", assignee: "", outputType: "", outputId: "", afterContracts: "", needsArtifacts: "" };
type Draft = typeof EMPTY;

const list = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function bodyOf(d: Draft) {
  const dependencies: Dependency[] = [
    ...list(d.afterContracts).map((contractId) => ({ type: "contract" as const, contractId })),
    ...list(d.needsArtifacts).map((artifactId) => ({ type: "artifact" as const, artifactId })),
  ];
  const output = d.outputType ? [{ artifactType: d.outputType, ...(d.outputId.trim() ? { artifactId: d.outputId.trim() } : {}) }] : [];
  return { id: d.id.trim(), title: d.title.trim(), assignee: d.assignee.trim(), dependencies, expectedOutputs: output };
}

/** Which input a refusal is about: dependencies are numbered contracts first, then artifacts. */
function inputOf(field: string, d: Draft): keyof Draft | null {
  const dep = /^dependencies\[(\d+)\]/.exec(field);
  if (dep) return Number(dep[1]) < list(d.afterContracts).length ? "afterContracts" : "needsArtifacts";
  if (field.startsWith("expectedOutputs")) return field.endsWith("artifactId") ? "outputId" : "outputType";
  return field in EMPTY ? (field as keyof Draft) : null;
}

function Field({ label, issues, hint, children }: { label: string; issues: FieldIssue[]; hint?: string; children: ReactNode }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {issues.map((i) => (
        <span key={`${i.field} ${i.message}`} className="error">
          {i.field}: {i.message}
        </span>
      ))}
      {issues.length === 0 && hint && <span className="hint">{hint}</span>}
    </label>
  );
}

/**
 * The form a roster drop opens, prefilled with the member. The hub checks everything (ids,
 * unknown contracts, cycles) and its refusal is shown under the field it names.
 */
export function NewContractDialog({
  team,
  assignee,
  onClose,
  onCreated,
}: {
  team: string;
  assignee: string | null;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const create = useCreateContract(team);
  const types = useArtifactTypes(team);
  const [d, setD] = useState<Draft>(EMPTY);
  const { reset } = create;

  useEffect(() => {
    if (assignee === null) return dialog.current?.close();
    setD({ ...EMPTY, assignee });
    reset();
    dialog.current?.showModal();
  }, [assignee, reset]);

  const issues = issuesOf(create.error);
  const at = (input: keyof Draft) => issues.filter((i) => inputOf(i.field, d) === input);
  const elsewhere = issues.filter((i) => inputOf(i.field, d) === null);
  const invalid = (input: keyof Draft) => (at(input).length ? true : undefined);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setD((old) => ({ ...old, [k]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = bodyOf(d);
    create.mutate(body, { onSuccess: () => onCreated(body.id) });
  };

  return (
    <dialog ref={dialog} aria-label="new contract" data-testid="new-contract" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h2 className="page-title">New contract{d.assignee ? ` for ${d.assignee}` : ""}</h2>
        <div className="split">
          <Field label="Contract id" issues={at("id")} hint="lowercase letters, digits, . _ -">
            <input name="id" value={d.id} onChange={set("id")} aria-invalid={invalid("id")} required autoComplete="off" autoFocus />
          </Field>
          <Field label="Assignee" issues={at("assignee")}>
            <input name="assignee" value={d.assignee} onChange={set("assignee")} aria-invalid={invalid("assignee")} required autoComplete="off" />
          </Field>
        </div>
        <Field label="Title" issues={at("title")}>
          <input name="title" value={d.title} onChange={set("title")} aria-invalid={invalid("title")} required autoComplete="off" />
        </Field>
        <div className="split">
          <Field
            label="Expected output type"
            issues={at("outputType")}
            hint={types.error ? `types could not be loaded: ${(types.error as Error).message}` : "completes the contract when published"}
          >
            <select name="outputType" value={d.outputType} onChange={set("outputType")} aria-invalid={invalid("outputType")}>
              <option value="">(none)</option>
              {(types.data ?? []).map((t) => (
                <option key={t.name}>{t.name}</option>
              ))}
            </select>
          </Field>
          <Field label="Expected artifact id (optional)" issues={at("outputId")} hint="a specific artifact of that type">
            <input
              name="outputId"
              value={d.outputId}
              onChange={set("outputId")}
              aria-invalid={invalid("outputId")}
              disabled={!d.outputType}
              autoComplete="off"
            />
          </Field>
        </div>
        <div className="split">
          <Field label="Depends on contracts" issues={at("afterContracts")} hint="contract ids, separated by commas">
            <input
              name="afterContracts"
              value={d.afterContracts}
              onChange={set("afterContracts")}
              aria-invalid={invalid("afterContracts")}
              autoComplete="off"
            />
          </Field>
          <Field label="Needs artifacts" issues={at("needsArtifacts")} hint="artifact ids, separated by commas">
            <input
              name="needsArtifacts"
              value={d.needsArtifacts}
              onChange={set("needsArtifacts")}
              aria-invalid={invalid("needsArtifacts")}
              autoComplete="off"
            />
          </Field>
        </div>
        {elsewhere.map((i) => (
          <p key={`${i.field} ${i.message}`} className="form-error" role="alert">
            {i.field ? `${i.field}: ` : ""}
            {i.message}
          </p>
        ))}
        <div className="row">
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create contract"}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
