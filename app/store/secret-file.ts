import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A random secret kept in a file readable by its owner only (mode 0600), made on first use.
 *
 * For keys that must outlive a restart but protect nothing a person would miss: a file of the
 * wrong length (damaged, or from elsewhere) is replaced by a new secret, which only makes what
 * was signed with the old one invalid.
 */
export function loadOrCreateSecret(file: string, bytes = 32): Buffer {
  try {
    const existing = fs.readFileSync(file);
    if (existing.length === bytes) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(bytes);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, secret, { mode: 0o600 });
  fs.renameSync(temp, file);
  return secret;
}
