import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../core/errors.js';
import { newToken } from './request-guard.js';

/** The file in the data directory that keeps browser mode's access token between launches. */
export const TOKEN_FILE_NAME = 'browser-mode-token';

/** What {@link loadOrCreateToken} found or made. */
export interface LoadedToken {
  token: string;
  /** Set when the saved token could not be used or the new one could not be saved: say it once. */
  message?: string;
}

/** What {@link newToken} makes: 32 random bytes in base64url, no padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Browser mode's access token, kept in `<dataDir>/browser-mode-token` (mode 0600) so that a tab
 * left open across a restart keeps working: the token is the tab's only proof that it is our page.
 *
 * Made on first launch, and again when `rotate` is set (the old one is then refused everywhere
 * but in an instance still running with it). A file that holds no token, or cannot be read, is
 * replaced by a new token and `message` says so. When the new token cannot be saved, it lasts for
 * this launch only. Two launches on one data directory share the token.
 */
export function loadOrCreateToken(dataDir: string, options: { rotate?: boolean } = {}): LoadedToken {
  const file = path.join(dataDir, TOKEN_FILE_NAME);
  let problem: string | undefined;
  let exists = true;
  if (!options.rotate) {
    const read = readToken(file);
    if (read.token !== undefined) return { token: read.token };
    exists = read.exists;
    problem = read.problem;
  }
  const token = newToken();
  let saved: string;
  try {
    saved = writeToken(file, token, { replace: exists });
  } catch (error) {
    const unsaved = `could not be saved (${errorMessage(error)}), so it changes at the next launch`;
    return {
      token,
      message: problem ? `${problem}; the new one ${unsaved}.` : `The new browser mode token ${unsaved}.`
    };
  }
  return { token: saved, ...(problem && { message: `${problem}: made a new one.` }) };
}

function readToken(file: string): { token?: string; exists: boolean; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    return { exists: true, problem: `The saved browser mode token could not be read (${errorMessage(error)})` };
  }
  if (!TOKEN_PATTERN.test(text)) return { exists: true, problem: `${file} does not hold a browser mode token` };
  try {
    // A file that others could read is narrowed to its owner.
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch (error) {
    return { exists: true, problem: `The saved browser mode token could not be kept private (${errorMessage(error)})` };
  }
  return { token: text, exists: true };
}

/**
 * Writes the token whole (a temp file renamed into place), readable by its owner only, and
 * returns the token the file holds after.
 *
 * With no file there before, it is linked in rather than renamed, which fails if another launch
 * on the same data directory made one meanwhile: that one is used, so both share a token.
 */
function writeToken(file: string, token: string, options: { replace: boolean }): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  // A temp file left by a crash would keep its own mode: `mode` applies only to a new file.
  fs.rmSync(temp, { force: true });
  try {
    fs.writeFileSync(temp, `${token}\n`, { mode: 0o600, flag: 'wx' });
    if (options.replace) {
      fs.renameSync(temp, file);
      return token;
    }
    try {
      fs.linkSync(temp, file);
      return token;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        const theirs = readToken(file);
        if (theirs.token !== undefined) return theirs.token;
      }
      // No hard links on this file system (or theirs was not whole): ours replaces it.
      fs.renameSync(temp, file);
      return token;
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
