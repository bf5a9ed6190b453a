import fs from 'node:fs';

/**
 * Makes a directory's entries durable: a file created or renamed into it survives a power loss
 * only once its directory is synced, whatever was done to the file itself.
 *
 * On Windows a directory cannot be opened for this; NTFS journals its metadata, and a rename
 * there is made durable by the file system rather than by the caller, so nothing is done.
 */
export function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
