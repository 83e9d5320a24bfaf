"use client";

import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { Dependency } from "@/lib/api/contracts.ts";
import { issuesOf, type FieldIssue } from "@/lib/field-issues.ts";
import { slugOf } from "@/lib/slug.ts";
import { useArtifactTypes } from "@/lib/queries/artifacts.ts";
import { useCreateContract } from "@/lib/queries/graph.ts";
import { useArtifacts, useContracts } from "@/lib/queries/home.ts";
import { useRoster } from "@/lib/queries/roster.ts";
import { PickList } from "../ui/PickList.tsx";

const EMPTY = { id: "", title: "", assignee: "", outputType: "", outputId: "", afterContracts: [] as string[], needsArtifacts: [] as string[] };
type Draft = typeof EMPTY;

function bodyOf(d: Draft) {
  const dependencies: Dependency[] = [
    ...d.afterContracts.map((contractId) => ({ type: "contract" as const, contractId })),
    ...d.needsArtifacts.map((artifactId) => ({ type: "artifact" as const, artifactId })),
  ];
  const output = d.outputType ? [{ artifactType: d.outputType, ...(d.outputId.trim() ? { artifactId: d.outputId.trim() } : {}) }] : [];
  return { id: d.id.trim(), title: d.title.trim(), assignee: d.assignee.trim(), dependencies, expectedOutputs: output };
}

/** Which input a refusal is about: dependencies are numbered contracts first, then artifacts. */
function inputOf(field: string, d: Draft): keyof Draft | null {
  const dep = /^dependencies\[(\d+)\]/.exec(field);
  if (dep) return Number(dep[1]) < d.afterContracts.length ? "afterContracts" : "needsArtifacts";
  if (field.startsWith("expectedOutputs")) return field.endsWith("artifactId") ? "outputId" : "outputType";
  return field in EMPTY ? (field as keyof Draft) : null;
}

/** A field's label, its input and the hub's refusals of it in words; `id` labels a group that is not one input. */
function Field({ label, issues, hint, children, group }: { label: string; issues: FieldIssue[]; hint?: string; children: ReactNode; group?: boolean }) {
  const body = (
    <>
      <span>{label}</span>
      {children}
      {issues.map((i) => (
        <span key={`${i.field} ${i.message}`} className="error">
          {i.field}: {i.message}
        </span>
      ))}
      {issues.length === 0 && hint && <span className="hint">{hint}</span>}
    </>
  );
  return group ? <div className="field">{body}</div> : <label className="field">{body}</label>;
}

/**
 * The form a roster drop (or the palette's "New contract for …") opens, prefilled with the member. The id follows the
 * title until it is edited; the assignee is picked from the roster (another name is allowed: the contract waits for a
 * member of that name); dependencies are picked from the team's contracts and artifacts. The hub checks everything (ids,
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
  const roster = useRoster(team).data ?? [];
  const contracts = useContracts(team).data?.items ?? [];
  const artifacts = useArtifacts(team).data?.items ?? [];
  const [d, setD] = useState<Draft>(EMPTY);
  // The id follows the title until the person types one.
  const [idEdited, setIdEdited] = useState(false);
  const { reset } = create;

  useEffect(() => {
    if (assignee === null) return dialog.current?.close();
    setD({ ...EMPTY, assignee });
    setIdEdited(false);
    reset();
    dialog.current?.showModal();
  }, [assignee, reset]);

  const issues = issuesOf(create.error);
  const at = (input: keyof Draft) => issues.filter((i) => inputOf(i.field, d) === input);
  const elsewhere = issues.filter((i) => inputOf(i.field, d) === null);
  const invalid = (input: keyof Draft) => (at(input).length ? true : undefined);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setD((old) => ({ ...old, [k]: e.target.value }));
  const setTitle = (title: string) => setD((old) => ({ ...old, title, id: idEdited ? old.id : slugOf(title) }));
  const onRoster = d.assignee.trim() === "" || roster.some((m) => m.name === d.assignee.trim());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = bodyOf(d);
    create.mutate(body, { onSuccess: () => onCreated(body.id) });
  };

  return (
    <dialog ref={dialog} aria-label="new contract" data-testid="new-contract" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h2 className="page-title">New contract{d.assignee ? ` for ${d.assignee}` : ""}</h2>
        <Field label="Title" issues={at("title")}>
          <input
            name="title"
            value={d.title}
            onChange={(e) => setTitle(e.target.value)}
            aria-invalid={invalid("title")}
            required
            autoComplete="off"
            autoFocus
          />
        </Field>
        <div className="split">
          <Field label="Contract id" issues={at("id")} hint={idEdited ? "lowercase letters, digits, . _ -" : "made from the title; edit it to choose another"}>
            <input
              name="id"
              value={d.id}
              onChange={(e) => {
                setIdEdited(true);
                set("id")(e);
              }}
              aria-invalid={invalid("id")}
              required
              autoComplete="off"
              className="mono"
            />
          </Field>
          <Field
            label="Assignee"
            issues={at("assignee")}
            hint={onRoster ? "a member of the roster" : `${d.assignee.trim()} is not on the roster: the contract waits for a member of that name`}
          >
            <input
              name="assignee"
              value={d.assignee}
              onChange={set("assignee")}
              aria-invalid={invalid("assignee")}
              required
              autoComplete="off"
              list="new-contract-roster"
            />
          </Field>
          <datalist id="new-contract-roster">
            {roster.map((m) => (
              <option key={m.name} value={m.name}>
                {m.role ? `${m.name} · ${m.role}` : m.name}
              </option>
            ))}
          </datalist>
        </div>
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
          <Field label="Depends on contracts" issues={at("afterContracts")} hint="ready once these are completed" group>
            <PickList
              label="depends on contracts"
              name="afterContracts"
              options={contracts.map((c) => ({ value: c.id, label: `${c.title} · ${c.status}` }))}
              values={d.afterContracts}
              onChange={(afterContracts) => setD((old) => ({ ...old, afterContracts }))}
              invalid={invalid("afterContracts")}
              placeholder="a contract id or title"
            />
          </Field>
          <Field label="Needs artifacts" issues={at("needsArtifacts")} hint="ready once these are published" group>
            <PickList
              label="needs artifacts"
              name="needsArtifacts"
              options={artifacts.map((a) => ({ value: a.id, label: `${a.type} · v${a.latestVersion}` }))}
              values={d.needsArtifacts}
              onChange={(needsArtifacts) => setD((old) => ({ ...old, needsArtifacts }))}
              invalid={invalid("needsArtifacts")}
              placeholder="an artifact id"
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
