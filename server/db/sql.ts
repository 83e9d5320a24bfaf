/**
 * SQL written as a tagged template: sql`SELECT … WHERE "id" = ${id}` binds each value where it stands (a `?` in the
 * text, the value in the parameters, in the same order), so a value can never be read as SQL and a parameter can never
 * drift from its place. A value that is itself a `Query` is a fragment: its text goes in whole and its parameters in
 * their place among the others, so queries compose from parts kept in other modules (a subquery, a condition, a
 * VALUES row) without anyone counting question marks.
 *
 * The text marks each value's place with `?`: the adapters bind it (./sqlite.ts) or number it (./postgres.ts), and
 * cache statements by text. A template with no fragment in it has the same text on every call, so that text is built once
 * per call site (the template's strings are one object per call site).
 */
import type { Param } from "./connection.ts";
import { IN_LIST, jsonList } from "./in-list.ts";

export class Query {
  constructor(
    readonly text: string,
    readonly params: readonly Param[],
  ) {}
}

export type SqlValue = Param | Query;

const textOf = new WeakMap<TemplateStringsArray, string>();

export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): Query {
  if (!values.some((v) => v instanceof Query)) {
    let text = textOf.get(strings);
    if (text === undefined) {
      text = strings.join("?");
      textOf.set(strings, text);
    }
    return new Query(text, values as Param[]);
  }
  let text = strings[0];
  const params: Param[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v instanceof Query) {
      text += v.text;
      for (const p of v.params) params.push(p);
    } else {
      text += "?";
      params.push(v);
    }
    text += strings[i + 1];
  }
  return new Query(text, params);
}

/**
 * SQL text the code itself chose (a column list, an ORDER BY among fixed ones, a constant): never a value that came
 * from outside, which goes in as `${value}` instead.
 */
export function raw(text: string): Query {
  return new Query(text, []);
}

export const EMPTY = raw("");

/** Fragments one after another with `separator` between them (", " by default); EMPTY for none. */
export function join(parts: readonly Query[], separator = ", "): Query {
  if (parts.length === 0) return EMPTY;
  let text = parts[0].text;
  const params: Param[] = [...parts[0].params];
  for (let i = 1; i < parts.length; i++) {
    text += separator + parts[i].text;
    for (const p of parts[i].params) params.push(p);
  }
  return new Query(text, params);
}

/** Values as a list of parameters, `?,?,?` (an IN list of fixed values, a VALUES row): one parameter each, in order. */
export function values(list: readonly Param[], separator = ","): Query {
  return new Query(list.map(() => "?").join(separator), list);
}

/**
 * A list of values as one bound parameter, after IN or NOT IN: `"id" IN ${inList(ids)}`. One cached statement whatever
 * the number of values (./in-list.ts; each adapter spells it its way).
 */
export function inList(values: Iterable<number | string>): Query {
  return new Query(IN_LIST, [jsonList(values)]);
}
