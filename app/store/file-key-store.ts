import fs from 'node:fs';
import path from 'node:path';
import type { KeyStore } from '../sampling/key-store.js';

/**
 * API keys in a file readable by the owner only (mode 0600), for browser mode and plain Node.
 *
 * The keys are not encrypted here: the Electron app uses its `safeStorage`-backed key store
 * instead. The file holds nothing but keys, so settings files and logs never contain one.
 */
export class FileKeyStore implements KeyStore {
  readonly #file: string;

  constructor(dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.#file = path.join(dir, 'provider-keys.json');
  }

  async get(providerId: string): Promise<string | undefined> {
    return this.#read()[providerId];
  }

  async set(providerId: string, apiKey: string): Promise<void> {
    this.#write({ ...this.#read(), [providerId]: apiKey });
  }

  async delete(providerId: string): Promise<void> {
    const { [providerId]: _removed, ...rest } = this.#read();
    this.#write(rest);
  }

  async has(providerId: string): Promise<boolean> {
    return providerId in this.#read();
  }

  toJSON(): string {
    return '[FileKeyStore]';
  }

  #read(): Record<string, string> {
    try {
      const value = JSON.parse(fs.readFileSync(this.#file, 'utf8')) as unknown;
      return value && typeof value === 'object' ? (value as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  #write(keys: Record<string, string>): void {
    const temp = `${this.#file}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(keys), { mode: 0o600 });
    fs.renameSync(temp, this.#file);
  }
}
