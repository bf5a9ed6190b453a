import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../core/errors.js';

/**
 * Makes `dir` (and its parents) a directory the store can use, or throws an error that names the
 * path and says what to do: a file where a directory belongs otherwise ends the start with an
 * `EEXIST` or `ENOTDIR` stack trace that names neither.
 */
export function ensureDirectory(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw directoryError(dir, error);
  }
  assertDirectoryOrAbsent(dir);
}

/**
 * Throws the same clear error when `dir` exists but is not a directory; a missing one is fine
 * (made when first needed).
 */
export function assertDirectoryOrAbsent(dir: string): void {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) throw notADirectory(dir);
}

function directoryError(dir: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    // Either `dir` itself or one of its parents is a file: name the one that is.
    let probe = dir;
    for (;;) {
      const stat = fs.statSync(probe, { throwIfNoEntry: false });
      if (stat && !stat.isDirectory()) return notADirectory(probe);
      const parent = path.dirname(probe);
      if (parent === probe) break;
      probe = parent;
    }
  }
  return new Error(`Taskdesk cannot use the directory ${dir}: ${errorMessage(error)}`, { cause: error });
}

function notADirectory(dir: string): Error {
  return Object.assign(
    new Error(
      `Taskdesk cannot use ${dir}: it is a file where Taskdesk keeps a directory. Move the file away (or rename it) and start Taskdesk again.`
    ),
    { code: 'ENOTDIR', path: dir }
  );
}
