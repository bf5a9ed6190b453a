import fs from 'node:fs';
import path from 'node:path';
import { documentWritesLanded } from '../../app/store/document-writer.js';

/**
 * The files under `dir` (relative paths) whose text `holds` says yes to, read once every document
 * write of the process has landed. A checkpoint or a segment may still be on its way meanwhile
 * (written by the store's worker, under a temporary name renamed into place): a file that went
 * away between the listing and its read is read again under its final name, by a second scan,
 * up to five; files that kept going away fail the test. Read as latin1: any byte sequence is text.
 */
export async function filesHolding(
  dir: string,
  holds: (text: string) => boolean,
  skip: (file: string) => boolean = () => false
): Promise<string[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await documentWritesLanded();
    const found: string[] = [];
    let vanished = false;
    for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const file = path.join(dir, entry);
      try {
        if (skip(file) || !fs.statSync(file).isFile()) continue;
        if (holds(fs.readFileSync(file, 'latin1'))) found.push(entry);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        vanished = true;
      }
    }
    if (!vanished) return found;
  }
  throw new Error(`Files under ${dir} kept going away while read`);
}
