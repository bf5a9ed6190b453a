import { HostError, JsonRpcCode } from '../core/errors.js';
import { copyJson } from '../core/json-copy.js';
import { hasUserInfo, REDACTED, redactUrlsIn } from '../core/redact-url.js';
import type { KeyStore } from './key-store.js';
import {
  ProviderConfigSchema,
  ProviderSettingsSchema,
  settingsOf,
  viewOf,
  type ProviderConfig,
  type ProviderSettings,
  type ProviderView
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
export class ProviderRegistry implements ProviderSource {
  readonly #keys: KeyStore;
  #providers: ProviderSettings[];

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
   * Adds or replaces a provider. A key in the config goes to the key store; a config
   * without a key leaves a stored key alone (the edit form does not show keys).
   */
  async upsert(input: ProviderConfig): Promise<ProviderView> {
    const config = ProviderConfigSchema.parse(input);
    const settings = settingsOf(config);
    settings.baseURL = this.#baseURLToStore(settings.id, settings.baseURL);
    if (config.apiKey !== undefined) await this.#keys.set(settings.id, config.apiKey);
    const index = this.#providers.findIndex((p) => p.id === settings.id);
    if (index === -1) this.#providers.push(settings);
    else this.#providers[index] = settings;
    return outward(settings, await this.#keys.has(settings.id));
  }

  /**
   * The base URL to keep. A user name or password in it is refused: fetch cannot send one (it
   * fails every request) and it would be a key kept in the settings file. The UI shows a base
   * URL with its secret query values hidden, and sends that back when another field is edited:
   * then the stored URL is kept.
   */
  #baseURLToStore(providerId: string, baseURL: string): string {
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
  async remove(providerId: string): Promise<void> {
    this.#providers = this.#providers.filter((p) => p.id !== providerId);
    await this.#keys.delete(providerId);
  }

  /** Clears the key of a provider (a local server that no longer needs one). */
  async clearKey(providerId: string): Promise<void> {
    await this.#keys.delete(providerId);
  }

  /** Every provider as the UI may see it. */
  async views(): Promise<ProviderView[]> {
    return Promise.all(this.#providers.map(async (p) => outward(p, await this.#keys.has(p.id))));
  }

  /** The settings to persist; holds no keys. */
  snapshot(): ProviderSettings[] {
    return this.list();
  }
}

/** A provider as it may leave the core: credentials in its base URL (a key in the query) hidden. */
function outward(settings: ProviderSettings, hasKey: boolean): ProviderView {
  const view = viewOf(settings, hasKey);
  view.baseURL = redactUrlsIn(view.baseURL);
  return view;
}
