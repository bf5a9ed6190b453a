import { safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import type { KeyStore } from '../app/sampling/key-store.js';

/**
 * Provider API keys sealed with Electron's `safeStorage` (the OS keychain: Keychain, DPAPI,
 * libsecret/kwallet), kept as base64 ciphertext in one owner-only file.
 *
 * Refuses to store a key when there is no real keychain: on Linux without one, safeStorage
 * falls back to a fixed password (`basic_text`), which would only pretend to protect it.
 */
export class SafeStorageKeyStore implements KeyStore {
  readonly #store: ElectronStore<Record<string, string>>;

  constructor(dir: string) {
    this.#store = new ElectronStore<Record<string, string>>({
      cwd: dir,
      // Not `provider-keys`: that is the plain file key store of browser mode.
      name: 'provider-keys-sealed',
      configFileMode: 0o600,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false
    });
  }

  async get(providerId: string): Promise<string | undefined> {
    const sealed = this.#store.get(providerId);
    if (typeof sealed !== 'string') return undefined;
    return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
  }

  async set(providerId: string, apiKey: string): Promise<void> {
    const weak = process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text';
    if (!safeStorage.isEncryptionAvailable() || weak) {
      throw new Error('No system keychain is available, so Taskdesk cannot store the API key safely.');
    }
    this.#store.set(providerId, safeStorage.encryptString(apiKey).toString('base64'));
  }

  async delete(providerId: string): Promise<void> {
    this.#store.delete(providerId);
  }

  async has(providerId: string): Promise<boolean> {
    return this.#store.has(providerId);
  }

  // Nothing about keys, not even ciphertext, in logs.
  toJSON(): string {
    return '[SafeStorageKeyStore]';
  }
}
