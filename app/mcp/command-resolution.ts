import fs from 'node:fs';
import path from 'node:path';
import { redactUrlsIn } from '../core/redact-url.js';

/** Where a stdio server's command was found, or the words for why it was not. */
export type CommandResolution =
  { found: true; executable: string } | { found: false; message: string; searched: string[] };

/**
 * Finds the executable a command names, as a shell would: a command with a path separator is
 * taken relative to `cwd`; a bare name is looked up in each directory of `PATH` (with Windows'
 * `PATHEXT` extensions). Our own few lines rather than the `which` package: it is only a
 * transitive dependency here, and we need the directories searched for the message anyway.
 */
export function resolveCommand(
  command: string,
  options: { PATH: string; cwd?: string; platform?: NodeJS.Platform; PATHEXT?: string }
): CommandResolution {
  const platform = options.platform ?? process.platform;
  const win = platform === 'win32';
  const delimiter = win ? ';' : ':';
  const extensions = win ? ['', ...(options.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const cwd = options.cwd ?? process.cwd();
  // A server's address typed as its command: no path of the working folder ("http:/…", one
  // slash dropped by path.resolve) would say what is wrong.
  if (isAddress(command))
    return {
      found: false,
      searched: [],
      message: `${redactUrlsIn(command.trim())} is an address, not a command: add it as a Streamable HTTP server.`
    };
  if (command.includes('/') || (win && command.includes('\\'))) {
    const full = path.resolve(cwd, command);
    for (const extension of extensions)
      if (isExecutable(full + extension, win)) return { found: true, executable: full + extension };
    return {
      found: false,
      searched: [],
      // A command line pasted whole ("npx -y @scope/server") has a slash in a package name, not
      // a path: the command as typed, not a path of our working folder no one typed.
      message: withArguments(command)
        ? `The command "${command}" was not found. ${ARGUMENTS_APART}`
        : `The command ${full} does not exist or cannot be run (it is not an executable file).`
    };
  }
  const searched = [...new Set(options.PATH.split(delimiter).filter(Boolean))];
  for (const dir of searched) {
    for (const extension of extensions) {
      const candidate = path.join(path.resolve(cwd, dir), command + extension);
      if (isExecutable(candidate, win)) return { found: true, executable: candidate };
    }
  }
  return {
    found: false,
    searched,
    message:
      searched.length === 0
        ? `The command "${command}" was not found: the PATH Taskdesk has is empty. Give the command's full path.`
        : `The command "${command}" was not found in the ${searched.length} ${searched.length === 1 ? 'directory' : 'directories'} of the PATH (your login shell's, then Taskdesk's own): ${listed(searched)}. ${withArguments(command) ? ARGUMENTS_APART : 'Install it, or give its full path.'}`
  };
}

const ARGUMENTS_APART =
  'If that is a command followed by its arguments, put the command alone in Command and each argument on its own line in Arguments.';

/**
 * Whether a command that was not found looks like a command line: whitespace after its first
 * word. A path with a space in a folder's name ("/opt/my tools/server") has one too, so the
 * words only suggest, they do not say.
 */
function withArguments(command: string): boolean {
  return /\S\s+\S/.test(command.trim());
}

/** Whether a command is an http(s) URL: a Streamable HTTP server's address, not something to run. */
function isAddress(command: string): boolean {
  const text = command.trim();
  if (!/^https?:\/\/\S+$/i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

/** The first directories searched, and how many more: a PATH of 14 directories is a wall of text. */
function listed(dirs: string[], shown = 5): string {
  return dirs.length <= shown + 1
    ? dirs.join(', ')
    : `${dirs.slice(0, shown).join(', ')} and ${dirs.length - shown} more`;
}

function isExecutable(file: string, win: boolean): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (!win) fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The PATH stdio servers are started with: the login shell's directories first, then those of
 * Taskdesk's own PATH it lacks (an app started from the dock has a minimal one).
 */
export function mergePaths(
  loginPath: string | undefined,
  ownPath: string | undefined,
  platform = process.platform
): string {
  const delimiter = platform === 'win32' ? ';' : ':';
  const dirs = [...(loginPath ?? '').split(delimiter), ...(ownPath ?? '').split(delimiter)].filter(Boolean);
  return [...new Set(dirs)].join(delimiter);
}
