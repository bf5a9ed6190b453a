import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../core/errors.js';

/**
 * A random secret kept in a file readable by its owner only (mode 0600 on POSIX systems), made on
 * first use.
 *
 * For keys that must outlive a restart but protect nothing a person would miss: a file of the
 * wrong length (damaged, or from elsewhere) is replaced by a new secret, which only makes what
 * was signed with the old one invalid. When the file can be neither read nor written, the
 * secret lasts for this run only and `warning` says why; nothing fails.
 */
export function loadOrCreateSecret(file: string, bytes = 32): { secret: Buffer; warning?: string } {
  let problem: unknown;
  try {
    const existing = fs.readFileSync(file);
    if (existing.length === bytes) {
      // A file that others could read is narrowed to its owner.
      if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
      return { secret: existing };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problem = error;
  }
  const secret = randomBytes(bytes);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, secret, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch (error) {
    problem ??= error;
    return {
      secret,
      warning: `Could not keep ${path.basename(file)} (${errorMessage(problem)}): it lasts until Taskdesk stops.`
    };
  }
  return { secret };
}
