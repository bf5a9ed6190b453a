/**
 * Where provider API keys are kept, by provider id.
 *
 * In the app this is backed by Electron's `safeStorage`; the core only sees this
 * interface. Implementations must never log a key or put one in an error message.
 */
export interface KeyStore {
  get(providerId: string): Promise<string | undefined>;
  set(providerId: string, apiKey: string): Promise<void>;
  delete(providerId: string): Promise<void>;
  has(providerId: string): Promise<boolean>;
}

/** A key store in memory, for tests and for browser mode without persistence. */
export class InMemoryKeyStore implements KeyStore {
  readonly #keys = new Map<string, string>();

  constructor(initial: Record<string, string> = {}) {
    for (const [id, key] of Object.entries(initial)) this.#keys.set(id, key);
  }

  async get(providerId: string): Promise<string | undefined> {
    return this.#keys.get(providerId);
  }

  async set(providerId: string, apiKey: string): Promise<void> {
    this.#keys.set(providerId, apiKey);
  }

  async delete(providerId: string): Promise<void> {
    this.#keys.delete(providerId);
  }

  async has(providerId: string): Promise<boolean> {
    return this.#keys.has(providerId);
  }

  // Keys must not leak through console.log or JSON.stringify of the store.
  toJSON(): Record<string, string> {
    return Object.fromEntries([...this.#keys.keys()].map((id) => [id, '[redacted]']));
  }
}
