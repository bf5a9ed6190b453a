import fs from 'node:fs';
import path from 'node:path';
import type { KeyStore } from '../sampling/key-store.js';
import { notMovedText, quarantineFile } from './quarantine.js';

/**
 * API keys in a file readable by the owner only (mode 0600), for browser mode and plain Node.
 *
 * The keys are not encrypted here: the Electron app uses its `safeStorage`-backed key store
 * instead. The file holds nothing but keys, so settings files and logs never contain one.
 *
 * Given a `corruptDir`, a file that does not parse when the store opens is moved there, as the
 * host does with every stored file it cannot read, and `warning` says so (its keys must be
 * entered again). A file that turns bad later is never overwritten: every use of the store then
 * fails with an error naming it, until a person mends or removes it.
 */
export class FileKeyStore implements KeyStore {
  readonly #file: string;
  /** Set when the file could not be read at open and was moved aside. */
  readonly warning?: { message: string; movedTo: string };

  constructor(dir: string, options: { corruptDir?: string } = {}) {
    fs.mkdirSync(dir, { recursive: true });
    this.#file = path.join(dir, 'provider-keys.json');
    if (options.corruptDir === undefined) return;
    try {
      this.#read();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== undefined) return; // unreadable, not corrupt: leave it
      const moved = quarantineFile(this.#file, options.corruptDir, 'provider-keys') ?? { movedTo: this.#file };
      this.warning = {
        message: `${(error as Error).message}. It was moved aside; enter the LLM providers’ API keys again.${notMovedText(moved)}`,
        movedTo: moved.movedTo
      };
    }
  }

  async get(providerId: string): Promise<string | undefined> {
    const keys = this.#read();
    return Object.hasOwn(keys, providerId) ? keys[providerId] : undefined;
  }

  async set(providerId: string, apiKey: string): Promise<void> {
    this.#write({ ...this.#read(), [providerId]: apiKey });
  }

  async delete(providerId: string): Promise<void> {
    const { [providerId]: _removed, ...rest } = this.#read();
    this.#write(rest);
  }

  async has(providerId: string): Promise<boolean> {
    return Object.hasOwn(this.#read(), providerId);
  }

  toJSON(): string {
    return '[FileKeyStore]';
  }

  /**
   * The stored keys. A missing file is no keys; a file that does not parse is an error, so that
   * the next write does not replace every stored key with one.
   */
  #read(): Record<string, string> {
    let text: string;
    try {
      text = fs.readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Object.create(null) as Record<string, string>;
      throw error;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Not the parser's error, as words or as a cause: V8 quotes the text around the fault, which
      // here is part of a key.
      throw new Error(`The API key file ${this.#file} is not valid JSON`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new Error(`The API key file ${this.#file} is not a JSON object`);
    if (!Object.values(value).every((key) => typeof key === 'string'))
      throw new Error(`The API key file ${this.#file} holds a key that is not a string`);
    return Object.assign(Object.create(null) as Record<string, string>, value);
  }

  #write(keys: Record<string, string>): void {
    const temp = `${this.#file}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(keys), { mode: 0o600 });
    fs.renameSync(temp, this.#file);
  }
}
