import fs from 'node:fs';
import path from 'node:path';
import { ensureDirectory } from './data-directory.js';
import { errorMessage } from '../core/errors.js';

/** Where the bytes of something that could not be used are now. */
export interface Quarantined {
  /** In the corrupt directory; or, when they could not be moved, where they were. */
  movedTo: string;
  /** Why they could not be moved (or copied) there, when they could not. */
  notMoved?: string;
}

/**
 * Moves a file that cannot be used into `corruptDir`, keeping its bytes for a person to look at.
 *
 * The one way the store sets data aside: it is never deleted, and its new name says where it
 * came from (`<label>-<time><ext>`, numbered when that name is taken). Returns undefined when
 * there is no file. A file that cannot be moved (a read-only disk, `corruptDir` being a file) is
 * left where it is, and `notMoved` says why: the caller reports it and does not use it.
 */
export function quarantineFile(file: string, corruptDir: string, label: string): Quarantined | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    ensureDirectory(corruptDir);
    const movedTo = freeName(corruptDir, label, path.extname(file));
    fs.renameSync(file, movedTo);
    return { movedTo };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !fs.existsSync(file)) return undefined;
    return { movedTo: file, notMoved: errorMessage(error) };
  }
}

/**
 * Writes a copy of data that cannot be used (a record inside a document that is otherwise
 * fine) into `corruptDir`. When it cannot be written, `notMoved` says why and `movedTo` is
 * empty: the caller must then keep the original.
 */
export function quarantineCopy(corruptDir: string, label: string, ext: string, content: string): Quarantined {
  try {
    ensureDirectory(corruptDir);
    for (;;) {
      const movedTo = freeName(corruptDir, label, ext);
      try {
        fs.writeFileSync(movedTo, content, { flag: 'wx' });
        return { movedTo };
      } catch (error) {
        // Taken between the look and the write: the next number.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  } catch (error) {
    return { movedTo: '', notMoved: errorMessage(error) };
  }
}

/** How a quarantine that could not move the bytes reads in a message. */
export function notMovedText(result: Quarantined): string {
  return result.notMoved === undefined
    ? ''
    : `; it could not be moved aside (${result.notMoved}), so it stays where it is and is not used`;
}

function freeName(dir: string, label: string, ext: string): string {
  const stem = `${label.replace(/[^A-Za-z0-9_.-]/g, '_')}-${Date.now()}`;
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, `${stem}${n === 1 ? '' : `-${n}`}${ext}`);
    if (!fs.existsSync(candidate)) return candidate;
  }
}
