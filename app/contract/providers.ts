import { z } from 'zod';
import { FULL_PATH_NEEDED, isFullPath } from './model-file.js';

/**
 * How a user rates one model, each axis from 0 to 1.
 *
 * `cost` is how expensive the model is (0 = free or cheapest, 1 = most expensive);
 * `speed` is how fast it answers (1 = fastest); `intelligence` is how capable it is
 * (1 = most capable). An axis left out counts as 0.5 when models are compared.
 */
export const ModelRatingsSchema = z.object({
  cost: z.number().min(0).max(1).optional(),
  speed: z.number().min(0).max(1).optional(),
  intelligence: z.number().min(0).max(1).optional()
});
export type ModelRatings = z.infer<typeof ModelRatingsSchema>;

/** One model a provider offers, with the user's optional ratings. */
export const ProviderModelSchema = z.object({
  /** The model id the provider's API expects, e.g. `gpt-4o-mini` or `llama3.2:3b`. */
  name: z.string().min(1),
  ratings: ModelRatingsSchema.optional()
});
export type ProviderModel = z.infer<typeof ProviderModelSchema>;

/**
 * Which request field carries `maxTokens`.
 *
 * OpenAI's newer models reject `max_tokens` and want `max_completion_tokens`; the local
 * servers (Ollama, LM Studio, llama.cpp, vLLM) all understand `max_tokens`, and not all
 * of them know the newer name. When left out it is chosen from the base URL.
 */
export const TokenLimitParamSchema = z.enum(['max_tokens', 'max_completion_tokens']);
export type TokenLimitParam = z.infer<typeof TokenLimitParamSchema>;

/**
 * A provider as it is stored: everything but the API key.
 *
 * Every provider speaks the OpenAI chat-completions API (OpenAI itself, or a compatible
 * server such as Ollama, LM Studio, llama.cpp's server or vLLM). The key lives in a
 * `KeyStore`, never in this document, so the settings file can be written in the clear.
 */
export const ProviderSettingsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'Use letters, digits, dot, dash and underscore'),
  name: z.string().min(1),
  /** The API root including `/v1`, e.g. `http://127.0.0.1:11434/v1`. */
  baseURL: z.url({ protocol: /^https?$/ }),
  models: z.array(ProviderModelSchema).default([]),
  /** The model used when the server's preferences select nothing; else the first model. */
  defaultModel: z.string().min(1).optional(),
  tokenLimitParam: TokenLimitParamSchema.optional(),
  /**
   * A model file (GGUF) on this computer that Taskdesk runs itself, instead of a server at
   * `baseURL`: an absolute path. Such a provider's `baseURL` is {@link LOCAL_MODEL_BASE_URL}
   * (the registry sets it) and it has no key.
   */
  modelFile: z.string().min(1).refine(isFullPath, FULL_PATH_NEEDED).optional()
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export { LOCAL_MODEL_BASE_URL, localModelId, isFullPath } from './model-file.js';

/**
 * A provider as the user enters it: the settings plus an optional API key.
 *
 * The key is optional because local servers need none. `ProviderRegistry.add` and `update`
 * move the key into the key store and keep only the settings.
 */
export const ProviderConfigSchema = ProviderSettingsSchema.extend({
  apiKey: z.string().min(1).optional()
});
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

/**
 * How a provider has been answering since Taskdesk started: `ok` since `since` (the first of the
 * calls that went alike), what made this known (`via`: a connection test, a sampling run, an
 * assistant's model call: the call that began it, or changed its failure), and while it fails,
 * the last failure in words (`message`, redacted as every provider failure is). Kept in memory
 * only: a start knows nothing yet, and a change of the provider's address or key forgets it (and
 * what a call made before the change says).
 */
export const ProviderHealthSchema = z.object({
  ok: z.boolean(),
  since: z.string(),
  via: z.enum(['test', 'sampling', 'assistant']),
  message: z.string().optional()
});
export type ProviderHealth = z.infer<typeof ProviderHealthSchema>;

/**
 * A provider as a UI sees it: the settings and whether a key is set, never the key; how it has
 * been answering, once it was called.
 */
export const ProviderViewSchema = ProviderSettingsSchema.extend({
  hasKey: z.boolean(),
  health: ProviderHealthSchema.optional()
});
export type ProviderView = z.infer<typeof ProviderViewSchema>;

/**
 * What a save means: `add` a new provider (an id in use is refused, so that a provider is never
 * replaced, nor its stored key handed to another, by a form meant to add one), or `update` one
 * saved before (an unknown id is refused).
 */
export const ProviderSaveModeSchema = z.enum(['add', 'update']);
export type ProviderSaveMode = z.infer<typeof ProviderSaveModeSchema>;

/**
 * `providers.save`'s params: a provider's config and what the save means. Left out, `mode` is
 * `add`, the side that can replace nothing.
 */
export const ProviderSaveSchema = ProviderConfigSchema.extend({
  mode: ProviderSaveModeSchema.default('add')
});
export type ProviderSave = z.input<typeof ProviderSaveSchema>;

/**
 * What a provider answered when asked for its models (`GET /models`, as "Test connection" asks):
 * their ids, or what failed, in words (never a key). The same shape as `providers.test`'s answer.
 */
export const ModelListingSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), models: z.array(z.string()) }),
  z.object({ ok: z.literal(false), kind: z.string(), message: z.string(), status: z.number().optional() })
]);
export type ModelListing = z.infer<typeof ModelListingSchema>;

/**
 * A provider as a save left it: its view, whether the save deleted its stored key, and what the
 * provider answered when the save asked it for its models.
 */
export const SavedProviderSchema = ProviderViewSchema.extend({
  /**
   * The origin (scheme, host and port) the stored key was entered for, when this update moved
   * the provider's base URL to another origin without a new key: that key was deleted, as it
   * is sent only where it was entered for.
   */
  keyDroppedFor: z.string().optional(),
  /**
   * Present when the save would have left the provider with no model listed: the host asked the
   * provider for its models, and listed those it answered (with the first as the default model
   * when none was set). A failure here leaves the save as it was: the provider stays saved, with
   * no model, and this says why none could be listed.
   */
  modelListing: ModelListingSchema.optional()
});
export type SavedProvider = z.infer<typeof SavedProviderSchema>;

/** The settings part of a config, with the key dropped. */
export function settingsOf(config: ProviderConfig): ProviderSettings {
  const { apiKey: _apiKey, ...settings } = config;
  return ProviderSettingsSchema.parse(settings);
}

/** The UI view of stored settings. */
export function viewOf(settings: ProviderSettings, hasKey: boolean): ProviderView {
  return { ...structuredClone(settings), hasKey };
}

/** The request field for `maxTokens` on this provider. */
export function tokenLimitParamOf(settings: ProviderSettings): TokenLimitParam {
  if (settings.tokenLimitParam) return settings.tokenLimitParam;
  return new URL(settings.baseURL).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
}

export { modelNamesOf } from './model-names.js';
