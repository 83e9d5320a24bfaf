/**
 * The agents a session can run (docs/runtimes.md): the hub's table of runtimes, built once at start from its
 * environment. `claude` is Claude Code, supervised natively; `codex` is OpenAI's Codex through its ACP adapter.
 * The doors check a request against it (an unknown runtime, a model it does not list, what it cannot do) and the
 * supervisor launches from it.
 */
import { parse, type TomlTable } from "smol-toml";
import { z } from "zod";

export const RUNTIME_NAMES = ["claude", "codex"] as const;
export type RuntimeName = (typeof RUNTIME_NAMES)[number];
export const DEFAULT_RUNTIME: RuntimeName = "claude";

/** Dollars per million tokens; a runtime whose agent reports tokens only is priced from this. */
export type ModelPrice = { inputUsdPerMTok: number; cachedInputUsdPerMTok: number; outputUsdPerMTok: number };

/** What some runtime cannot do, refused at the door naming the runtime and this reason. */
export type Incapability = "fork" | "agent";

export type RuntimeSpec = {
  name: RuntimeName;
  /** How the supervisor drives it: Claude Code's stream-json, or the Agent Client Protocol. */
  protocol: "claude-stream-json" | "acp";
  /** The models a session may ask for; null: any (the Claude CLI resolves its aliases and ids itself). */
  models: Record<string, ModelPrice> | null;
  /** The model a session runs when its request names none (null: the agent's own default). */
  defaultModel: string | null;
  cannot: Partial<Record<Incapability, string>>;
};

/** Codex as the operator configured it: TEAMHUB_CODEX_CONFIG, TEAMHUB_CODEX_ENV, TEAMHUB_CODEX_MODELS, CODEX_ACP_BIN. */
export type CodexConfig = {
  /** CODEX_ACP_BIN; unset: the native binary of the pinned @zed-industries/codex-acp. */
  bin: string | undefined;
  /** TOML the hub writes into each Codex session's config.toml, under the hub's own MCP server. */
  toml: string;
  /** Variables every Codex session gets (its API key, say). */
  env: Record<string, string>;
};

/** Each runtime's spec, by name: what the doors check a request against. */
export type RuntimeTable = Record<RuntimeName, RuntimeSpec>;

export type Runtimes = { specs: RuntimeTable; codex: CodexConfig };

/**
 * OpenAI's list prices (standard tier, under 270K context) for the models codex-acp 0.16 knows, as published in 2026;
 * an operator whose models or prices differ sets TEAMHUB_CODEX_MODELS, which replaces the table. The first is the
 * default, as it is Codex's own.
 */
export const CODEX_MODEL_PRICES: Record<string, ModelPrice> = {
  "gpt-5.5": { inputUsdPerMTok: 5, cachedInputUsdPerMTok: 0.5, outputUsdPerMTok: 30 },
  "gpt-5.4": { inputUsdPerMTok: 2.5, cachedInputUsdPerMTok: 0.25, outputUsdPerMTok: 15 },
  "gpt-5.4-mini": { inputUsdPerMTok: 0.75, cachedInputUsdPerMTok: 0.075, outputUsdPerMTok: 4.5 },
};

const Price = z.number().finite().min(0).max(10_000);
const ModelTable = z.record(
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:\-[\]]{0,99}$/, { error: "model ids are letters, digits and . _ : - [ ]" }),
  z.object({ inputUsdPerMTok: Price, cachedInputUsdPerMTok: Price.optional(), outputUsdPerMTok: Price }).strict(),
);

function json(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`${name}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
}

/** TEAMHUB_CODEX_MODELS: `{"<model>": {"inputUsdPerMTok": …, "cachedInputUsdPerMTok": …, "outputUsdPerMTok": …}}`. */
export function codexModelsFrom(text: string | undefined): Record<string, ModelPrice> {
  if (text === undefined || text.trim() === "") return CODEX_MODEL_PRICES;
  const parsed = ModelTable.safeParse(json("TEAMHUB_CODEX_MODELS", text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`TEAMHUB_CODEX_MODELS: ${issue.path.join(".") || "(the whole value)"}: ${issue.message}`);
  }
  if (Object.keys(parsed.data).length === 0) throw new Error("TEAMHUB_CODEX_MODELS: lists no model");
  // Cached input is priced as input unless the table says otherwise.
  return Object.fromEntries(
    Object.entries(parsed.data).map(([model, p]) => [model, { ...p, cachedInputUsdPerMTok: p.cachedInputUsdPerMTok ?? p.inputUsdPerMTok }]),
  );
}

/** The model TEAMHUB_CODEX_CONFIG names, which must be one the hub can price. */
function configuredModel(toml: string, models: Record<string, ModelPrice>): string | null {
  let table: TomlTable;
  try {
    table = parse(toml);
  } catch (e) {
    throw new Error(`TEAMHUB_CODEX_CONFIG: not valid TOML (${(e as Error).message})`, { cause: e });
  }
  const model = table.model;
  if (model === undefined) return null;
  if (typeof model !== "string") throw new Error("TEAMHUB_CODEX_CONFIG: model must be a string");
  if (!models[model]) throw new Error(`TEAMHUB_CODEX_CONFIG: model '${model}' has no price; list it in TEAMHUB_CODEX_MODELS`);
  return model;
}

export function runtimesFrom(codex: CodexConfig & { models: Record<string, ModelPrice> }): Runtimes {
  const defaultModel = configuredModel(codex.toml, codex.models);
  return {
    specs: {
      claude: { name: "claude", protocol: "claude-stream-json", models: null, defaultModel: null, cannot: {} },
      codex: {
        name: "codex",
        protocol: "acp",
        models: codex.models,
        // Codex's own default model is offered no function tools (docs/runtimes.md), so the hub always names one.
        defaultModel: defaultModel ?? Object.keys(codex.models)[0],
        cannot: {
          fork: "an ACP agent cannot start a conversation from another one's history",
          agent: "Codex has no named agents (--agent is Claude Code's)",
        },
      },
    },
    codex: { bin: codex.bin, toml: codex.toml, env: codex.env },
  };
}

export const isRuntimeName = (name: string): name is RuntimeName => (RUNTIME_NAMES as readonly string[]).includes(name);
