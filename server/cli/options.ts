/** Option parsers shared by commands. A bad value is exit 2 naming the option, before any request. */
import fs from "node:fs";
import type { z } from "zod";
import { CliError, EXIT } from "./api-client.ts";

export function badOption(option: string, message: string): CliError {
  return new CliError(EXIT.badInput, `${option}: ${message}`);
}

/** Repeatable option: `--tag a --tag b`, also `--tag a,b`. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

/** Repeatable free-text option: each occurrence is one value, commas and all. */
export function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function jsonOption(option: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badOption(option, `is not valid JSON (${(e as Error).message})`);
  }
}

/** `--data '{…}'` or `--data-file path` (`-` reads stdin). */
export function jsonFromInlineOrFile(inline: string | undefined, file: string | undefined, name: string): unknown {
  if (inline !== undefined && file !== undefined) throw badOption(`--${name}`, `give either --${name} or --${name}-file, not both`);
  if (file !== undefined) {
    let text: string;
    try {
      text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
    } catch (e) {
      throw badOption(`--${name}-file`, `cannot read ${file}: ${(e as Error).message}`);
    }
    return jsonOption(`--${name}-file`, text);
  }
  return jsonOption(`--${name}`, inline);
}

/** A whole number; a given argument gives a number, an option left out gives undefined. */
export function intOption(option: string, text: string): number;
export function intOption(option: string, text: string | undefined): number | undefined;
export function intOption(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text.trim())) throw badOption(option, `must be a whole number, got '${text}'`);
  return Number(text);
}

export function numberOption(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw badOption(option, `must be a positive number, got '${text}'`);
  return Number(text);
}

/** A value that is inline JSON when it starts like JSON, and otherwise a path to a JSON file (- for stdin). */
export function jsonOrFile(option: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  if (/^\s*[[{]/.test(value)) return jsonOption(option, value);
  let text: string;
  try {
    text = fs.readFileSync(value === "-" ? 0 : value, "utf8");
  } catch (e) {
    throw badOption(option, `is neither JSON nor a readable file: ${(e as Error).message}`);
  }
  return jsonOption(option, text);
}

/**
 * A JSON option checked by the schema the hub will check it with: the value gets its type without
 * a cast, and a wrong shape is refused naming the option, before any request.
 */
export function checkedOption<S extends z.ZodType>(option: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw badOption(option, `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
}

/** One of a fixed set of values (a status, a preset), refused before the request like any bad option. */
export function choiceOption<T extends string>(option: string, choices: readonly T[], text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  const isChoice = (v: string): v is T => (choices as readonly string[]).includes(v);
  if (!isChoice(text)) throw badOption(option, `must be one of ${choices.join(", ")}, got '${text}'`);
  return text;
}
