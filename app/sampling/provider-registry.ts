import { HostError, JsonRpcCode } from '../core/errors.js';
import { copyJson } from '../core/json-copy.js';
import { hasUserInfo, REDACTED, redactUrlsIn } from '../core/redact-url.js';
import type { KeyStore } from './key-store.js';
import {
  LOCAL_MODEL_BASE_URL,
  localModelId,
  ProviderConfigSchema,
  ProviderSettingsSchema,
  settingsOf,
  viewOf,
  type ProviderConfig,
  type ProviderHealth,
  type ProviderSettings,
  type ProviderView,
  type SavedProvider
} from '../contract/providers.js';

/**
 * What the sampling engine needs to know about providers.
 *
 * `list()` is read on every request, so edits the user makes take effect for the next
 * sampling request without rebuilding the runner.
 */
export interface ProviderSource {
  /** Providers in the user's order of preference; the first is the default provider. */
  list(): ProviderSettings[];
  /** The API key of a provider, or undefined for a keyless (local) provider. */
  apiKey(providerId: string): Promise<string | undefined>;
}

/**
 * The configured providers: settings in memory, keys in a `KeyStore`.
 *
 * The host persists `snapshot()` (it holds no keys) wherever it keeps settings, and
 * builds the registry again from it at start-up.
 */
/**
 * Model families a provider lists (OpenAI's `/models` lists every model it has) that do not
 * answer chat completions: not chosen as the default of a provider whose models were listed for
 * it. A name list of our own: providers say nothing of what a model is for.
 */
const NOT_FOR_CHAT = /embed|whisper|tts|dall-e|moderation|transcribe|audio|realtime|image|search|babbage|davinci/i;

export class ProviderRegistry implements ProviderSource {
  readonly #keys: KeyStore;
  #providers: ProviderSettings[];
  /** The last change under way (see `#serially`). */
  #changes: Promise<unknown> = Promise.resolve();
  /** How each provider has been answering (see {@link answered}), by id. */
  readonly #health = new Map<string, ProviderHealth>();
  /**
   * How many times each provider's address or key changed (or it was removed): a call made
   * before the last change says nothing of it now (see {@link callStarted}).
   */
  readonly #changesOf = new Map<string, number>();

  constructor(keys: KeyStore, initial: readonly ProviderSettings[] = []) {
    this.#keys = keys;
    this.#providers = initial.map((p) => ProviderSettingsSchema.parse(p));
  }

  list(): ProviderSettings[] {
    return structuredClone(this.#providers);
  }

  /** A copy of one provider's settings (JSON data: walked, not `structuredClone`d, since the assistant reads it for every model call). */
  get(providerId: string): ProviderSettings | undefined {
    const found = this.#providers.find((p) => p.id === providerId);
    return found && copyJson(found);
  }

  apiKey(providerId: string): Promise<string | undefined> {
    return this.#keys.get(providerId);
  }

  /**
   * Adds a provider under an id no provider uses. A key in the config goes to the key store;
   * without one, a key left in the store under that id (by a provider whose settings were lost)
   * is deleted rather than inherited.
   */
  add(input: ProviderConfig): Promise<SavedProvider> {
    return this.#serially(async () => {
      const config = ProviderConfigSchema.parse(input);
      const settings = settingsOf(config);
      const existing = this.#providers.find((p) => p.id === settings.id);
      if (existing) {
        const message = `Id already used by ${existing.name}: choose another, or edit that provider.`;
        throw new HostError(JsonRpcCode.InvalidParams, message, { fields: { id: message } });
      }
      settings.baseURL = this.#baseURLToStore(settings.id, settings.baseURL, config);
      fileModel(settings);
      if (config.apiKey !== undefined) await this.#keys.set(settings.id, config.apiKey);
      else if (await this.#keys.has(settings.id)) await this.#keys.delete(settings.id);
      this.#providers.push(settings);
      // An id used before (a provider removed since) starts with nothing known of it.
      this.#forgetHealth(settings.id);
      return outward(settings, config.apiKey !== undefined);
    });
  }

  /**
   * Replaces the settings of a saved provider. A key in the config replaces the stored one; a
   * config without a key keeps it (the edit form does not show keys) as long as the base URL
   * stays on the origin the key was entered for.
   *
   * Moved to another origin without a new key, the provider loses its key: deleted, not kept.
   * A key is a secret between the user and one service; the next request, "Test connection"
   * first, would hand it to whoever answers at the new address. Refusing the save instead would
   * make a move to a keyless local server take two steps (Delete key, then Save), and the user
   * who wants the key there types it in the same form. `keyDroppedFor` says it happened.
   */
  update(input: ProviderConfig): Promise<SavedProvider> {
    return this.#serially(async () => {
      const config = ProviderConfigSchema.parse(input);
      const settings = settingsOf(config);
      const index = this.#providers.findIndex((p) => p.id === settings.id);
      const stored = this.#providers[index];
      if (!stored)
        throw new HostError(
          JsonRpcCode.InvalidParams,
          `No provider ${settings.id}: it may have been removed, in another window perhaps.`
        );
      settings.baseURL = this.#baseURLToStore(settings.id, settings.baseURL, config);
      fileModel(settings);
      let keyDroppedFor: string | undefined;
      if (config.apiKey !== undefined) await this.#keys.set(settings.id, config.apiKey);
      else if (originOf(stored.baseURL) !== originOf(settings.baseURL) && (await this.#keys.has(settings.id))) {
        await this.#keys.delete(settings.id);
        keyDroppedFor = originOf(stored.baseURL);
      }
      // What it answered was about the address and key it had: either changed, it is not known yet.
      if (config.apiKey !== undefined || stored.baseURL !== settings.baseURL || stored.modelFile !== settings.modelFile)
        this.#forgetHealth(settings.id);
      this.#providers[index] = settings;
      const view = this.#outward(settings, await this.#keys.has(settings.id));
      return keyDroppedFor === undefined ? view : { ...view, keyDroppedFor };
    });
  }

  /**
   * Lists the models a provider answered with (see `SamplingSetup.saveProvider`), unless it has
   * changed since it was asked: removed, moved to another base URL, or given models meanwhile
   * (another window's save wins). The first model becomes the default when none is set.
   * Returns the provider as it is now stored, or undefined when nothing was listed.
   */
  listModels(providerId: string, askedAt: string, names: readonly string[]): Promise<ProviderView | undefined> {
    return this.#serially(async () => {
      const index = this.#providers.findIndex((p) => p.id === providerId);
      const stored = this.#providers[index];
      const unique = [...new Set(names.filter((name) => name.length > 0))];
      if (!stored || stored.baseURL !== askedAt || stored.models.length > 0 || unique.length === 0) return undefined;
      const settings = ProviderSettingsSchema.parse({
        ...stored,
        models: unique.map((name) => ({ name })),
        defaultModel: stored.defaultModel ?? unique.find((name) => !NOT_FOR_CHAT.test(name)) ?? unique[0]
      });
      this.#providers[index] = settings;
      return this.#outward(settings, await this.#keys.has(providerId));
    });
  }

  /** {@link outward}, with how the provider has been answering. */
  #outward(settings: ProviderSettings, hasKey: boolean): ProviderView {
    const view = outward(settings, hasKey);
    const health = this.#health.get(settings.id);
    return health ? { ...view, health: { ...health } } : view;
  }

  /**
   * Runs the changes one after another: each checks the list, then waits for the key store, and
   * two at once (two windows adding the same id) would both pass the check.
   */
  #serially<T>(change: () => Promise<T>): Promise<T> {
    const done = this.#changes.then(change);
    this.#changes = done.catch(() => undefined);
    return done;
  }

  /**
   * The base URL to keep. A user name or password in it is refused: fetch cannot send one (it
   * fails every request) and it would be a key kept in the settings file. The UI shows a base
   * URL with its secret query values hidden, and sends that back when another field is edited:
   * then the stored URL is kept. A provider that runs a model file gets {@link LOCAL_MODEL_BASE_URL}
   * whatever was sent, and no key.
   */
  #baseURLToStore(providerId: string, baseURL: string, config: ProviderConfig): string {
    if (config.modelFile !== undefined) {
      if (config.apiKey === undefined) return LOCAL_MODEL_BASE_URL;
      const message = 'A model file on this computer takes no API key: leave the key empty.';
      throw new HostError(JsonRpcCode.InvalidParams, message, { fields: { apiKey: message } });
    }
    if (hasUserInfo(baseURL))
      throw new HostError(
        JsonRpcCode.InvalidParams,
        'The base URL holds a user name or password, which cannot be sent that way: put the key in the API key field (it is kept in the key store).'
      );
    const stored = this.#providers.find((p) => p.id === providerId)?.baseURL;
    if (stored !== undefined && baseURL === redactUrlsIn(stored)) return stored;
    if (baseURL.includes(REDACTED) || baseURL.includes(encodeURIComponent(REDACTED)))
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `The base URL still holds ${REDACTED} in place of a hidden value: type that value again, or remove it.`
      );
    return baseURL;
  }

  /** Removes a provider and its key. */
  remove(providerId: string): Promise<void> {
    return this.#serially(async () => {
      this.#providers = this.#providers.filter((p) => p.id !== providerId);
      this.#forgetHealth(providerId);
      await this.#keys.delete(providerId);
    });
  }

  /**
   * Puts a provider at `position` in the person's order (0: first, the default; past the end:
   * last). Returns its position now, or undefined when no provider has that id.
   */
  move(providerId: string, position: number): Promise<number | undefined> {
    return this.#serially(async () => {
      const moving = this.#providers.find((p) => p.id === providerId);
      if (!moving) return undefined;
      const rest = this.#providers.filter((p) => p !== moving);
      const at = Math.min(Math.max(0, position), rest.length);
      this.#providers = [...rest.slice(0, at), moving, ...rest.slice(at)];
      return at;
    });
  }

  /** Clears the key of a provider (a local server that no longer needs one). */
  clearKey(providerId: string): Promise<void> {
    return this.#serially(async () => {
      this.#forgetHealth(providerId);
      await this.#keys.delete(providerId);
    });
  }

  /** What is known of how a provider answers goes with its address or key: its calls made until now say nothing of it. */
  #forgetHealth(providerId: string): void {
    this.#health.delete(providerId);
    this.#changesOf.set(providerId, (this.#changesOf.get(providerId) ?? 0) + 1);
  }

  /**
   * Taken as a call of a provider starts, and handed to {@link answered} with its end: a call
   * that ends after the provider's address or key changed (a test with the old key, answered
   * once the right one was saved) says nothing of it.
   */
  callStarted(providerId: string): number {
    return this.#changesOf.get(providerId) ?? 0;
  }

  /**
   * Records how a call of a provider went (`failure`: why it failed, in words; absent when it
   * answered) at `at`; `started` is {@link callStarted}'s token of the call. Returns whether what
   * {@link views} shows of it changed: it began to answer or to fail, or failed otherwise than
   * last time (the host then tells the windows). Calls alike in a row change nothing, so a busy
   * provider is not announced on every call; `via` is what made the change.
   */
  answered(providerId: string, via: ProviderHealth['via'], at: string, started: number, failure?: string): boolean {
    if (!this.#providers.some((p) => p.id === providerId)) return false;
    if (started !== this.callStarted(providerId)) return false;
    const before = this.#health.get(providerId);
    const ok = failure === undefined;
    if (before && before.ok === ok && before.message === failure) return false;
    this.#health.set(providerId, {
      ok,
      since: before?.ok === ok ? before.since : at,
      via,
      ...(failure !== undefined && { message: failure })
    });
    return true;
  }

  /**
   * Forgets a provider's failure (a model file found again by a test, whatever call had failed
   * on it: a run that failed for want of the file would otherwise keep it passed over, and never
   * run again to show it answers): nothing is then known of how it answers. `started` is
   * {@link callStarted}'s token of the test: one that began before the provider changed says
   * nothing. Returns whether its view changed.
   */
  forgetFailure(providerId: string, started: number): boolean {
    if (started !== this.callStarted(providerId)) return false;
    if (this.#health.get(providerId)?.ok !== false) return false;
    this.#health.delete(providerId);
    return true;
  }

  /** Whether a provider's last call failed, as its card shows (`health.ok` false). */
  failing(providerId: string): boolean {
    return this.#health.get(providerId)?.ok === false;
  }

  /** Every provider as the UI may see it. */
  async views(): Promise<ProviderView[]> {
    return Promise.all(this.#providers.map(async (p) => this.#outward(p, await this.#keys.has(p.id))));
  }

  /** The settings to persist; holds no keys. */
  snapshot(): ProviderSettings[] {
    return this.list();
  }
}

/** Scheme, host and port of a URL: what a key is entered for. */
function originOf(url: string): string {
  return new URL(url).origin;
}

/** A provider as it may leave the core: credentials in its base URL (a key in the query) hidden. */
function outward(settings: ProviderSettings, hasKey: boolean): ProviderView {
  const view = viewOf(settings, hasKey);
  view.baseURL = redactUrlsIn(view.baseURL);
  return view;
}

/**
 * A model file holds one model, listed under its file's name (see `localModelId`): a provider
 * that runs one lists that model and no other, whatever the form sent (a path changed on an
 * edit leaves no name of the old file behind); its ratings are kept.
 */
function fileModel(settings: ProviderSettings): void {
  if (settings.modelFile === undefined) return;
  const name = localModelId(settings.modelFile);
  const ratings = settings.models.find((model) => model.name === name)?.ratings;
  settings.models = [{ name, ...(ratings && { ratings }) }];
  settings.defaultModel = name;
}
