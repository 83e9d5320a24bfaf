"use client";

import { useId, useState, type KeyboardEvent } from "react";

export type PickOption = { value: string; label: string };

/**
 * Several picked from a list (a contract's dependencies, the artifacts it needs) instead of ids typed with commas: each
 * pick is a chip with × to take it out; the input suggests what there is (a datalist) and adds on Enter, on "Add" or
 * when a suggestion is chosen. A value not in the list may still be added (the hub says what is wrong with it).
 */
export function PickList({
  label,
  name,
  options,
  values,
  onChange,
  invalid,
  placeholder,
}: {
  label: string;
  name: string;
  options: PickOption[];
  values: string[];
  onChange: (values: string[]) => void;
  invalid?: boolean;
  placeholder?: string;
}) {
  const [text, setText] = useState("");
  const list = useId();
  const add = (value: string) => {
    const v = value.trim();
    if (v && !values.includes(v)) onChange([...values, v]);
    setText("");
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      add(text);
    } else if (e.key === "Backspace" && text === "" && values.length > 0) {
      onChange(values.slice(0, -1));
    }
  };
  const labelOf = new Map(options.map((o) => [o.value, o.label]));
  return (
    <div className="pick-list" role="group" aria-label={label} data-name={name}>
      {values.length > 0 && (
        <ul className="chips">
          {values.map((v) => (
            <li key={v} className="chip" title={labelOf.get(v) ?? `${v} (not in the list)`}>
              <span className="mono clip">{v}</span>
              <button type="button" className="ghost" aria-label={`remove ${v}`} onClick={() => onChange(values.filter((x) => x !== v))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="row nowrap">
        <input
          name={name}
          value={text}
          list={list}
          aria-label={`add to ${label}`}
          aria-invalid={invalid}
          placeholder={placeholder}
          autoComplete="off"
          onChange={(e) => {
            // A suggestion chosen from the list comes in whole, not typed (no inputType, or a replacement): add it.
            const how = (e.nativeEvent as InputEvent).inputType;
            if ((how === undefined || how === "insertReplacementText") && labelOf.has(e.target.value)) add(e.target.value);
            else setText(e.target.value);
          }}
          onKeyDown={onKey}
        />
        <button type="button" className="small" disabled={!text.trim()} onClick={() => add(text)}>
          Add
        </button>
      </div>
      <datalist id={list}>
        {options
          .filter((o) => !values.includes(o.value))
          .map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
      </datalist>
    </div>
  );
}
