/**
 * The hub's Codex settings for a test: codex-acp reaches the fake Responses API at `url` through a custom model
 * provider (it ignores OPENAI_BASE_URL), with a key only the fake accepts, and the one model the hub prices.
 */
import { directiveModel } from "../fake-openai/directives.ts";
import type { ResponsesRequest } from "../fake-openai/request.ts";
import { startFakeOpenAi, type FakeOpenAi, type Reply } from "../fake-openai/server.ts";
import { startSessionHub, type SessionHub } from "./session-hub.ts";

export const CODEX_PRICE = { model: "gpt-5.4-mini", inputUsdPerMTok: 2, cachedInputUsdPerMTok: 0.5, outputUsdPerMTok: 10 };

export function codexHubEnv(url: string): Record<string, string> {
  const { model, ...price } = CODEX_PRICE;
  return {
    TEAMHUB_CODEX_CONFIG: [
      `model = "${model}"`,
      'model_provider = "fake"',
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${url}"`,
      'env_key = "FAKE_OPENAI_KEY"',
      'wire_api = "responses"',
    ].join("\n"),
    TEAMHUB_CODEX_ENV: JSON.stringify({ FAKE_OPENAI_KEY: "sk-fake" }),
    TEAMHUB_CODEX_MODELS: JSON.stringify({ [model]: price }),
  };
}

/** A hub whose Codex sessions reach a fake Responses API answering with `respond` (its Claude sessions, a fixed text). */
export async function startCodexHub(respond: (req: ResponsesRequest) => Reply | Promise<Reply> = directiveModel): Promise<CodexHub> {
  const openai = await startFakeOpenAi(respond);
  const sh = await startSessionHub(() => ({ text: "claude here" }), codexHubEnv(openai.url));
  const closeHub = sh.close;
  return Object.assign(sh, {
    openai,
    async close() {
      await closeHub();
      await openai.close();
    },
  });
}

export type CodexHub = SessionHub & { openai: FakeOpenAi };
