/**
 * The hub's Codex settings for a test: codex-acp reaches the fake Responses API at `url` through a custom model
 * provider (it ignores OPENAI_BASE_URL), with a key only the fake accepts, and the one model the hub prices.
 */
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
