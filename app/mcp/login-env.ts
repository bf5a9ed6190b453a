import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

/** The user's login-shell environment, or the reason it could not be read. */
export type LoginEnvironment = { env: Record<string, string | undefined>; warning?: string };

/**
 * Reads a login-shell environment (a parameter, so that tests give a fake shell or none). When
 * `signal` aborts (the time limit ran out), whatever it started must stop.
 */
export type LoginEnvResolver = (signal: AbortSignal) => Promise<Record<string, string | undefined>>;

/** What the shell prints around its environment, so that what its dotfiles print is left out. */
const DELIMITER = '_SHELL_ENV_DELIMITER_';

/**
 * The default: the user's shell run as an interactive login shell, reading `env`, as the
 * `shell-env` package does (the same command, the same variables that keep Oh My Zsh from
 * updating or starting tmux), in a process group of its own that the time limit kills.
 *
 * Our own rather than `shell-env`'s: that takes no time limit nor signal, so a shell whose
 * dotfiles hang was left running, with whatever it started, after the limit below gave up on it:
 * with a stale lock in `pyenv rehash` (which the shell's `pyenv init` runs), each such shell
 * waited a minute and held Taskdesk's process open after the host had closed. Now it holds it
 * open no longer than the limit.
 */
export const loginShellEnv =
  (shell?: string): LoginEnvResolver =>
  (signal) =>
    process.platform === 'win32'
      ? Promise.resolve({ ...process.env })
      : readLoginShell(shell ?? process.env.SHELL ?? '/bin/sh', signal);

function readLoginShell(shell: string, signal: AbortSignal): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn(shell, ['-ilc', `echo -n "${DELIMITER}"; command env; echo -n "${DELIMITER}"; exit`], {
      // A group of its own: the limit ends the shell and what its dotfiles started with it.
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, DISABLE_AUTO_UPDATE: 'true', ZSH_TMUX_AUTOSTARTED: 'true', ZSH_TMUX_AUTOSTART: 'false' }
    });
    let out = '';
    let settled = false;
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', stop);
      then();
    };
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
      settle(() => reject(new Error('The login shell was stopped: it did not answer in time')));
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      // Read as soon as the environment is whole: a child the dotfiles left behind may keep the pipe open.
      const parts = out.split(DELIMITER);
      if (parts.length >= 3) settle(() => resolve(parseEnv(parts[1]!)));
    });
    child.on('error', (error) => settle(() => reject(error)));
    child.on('exit', (code, exitSignal) =>
      settle(() =>
        reject(
          new Error(
            `The login shell ${shell} ended (${exitSignal ?? `code ${String(code)}`}) before it printed its environment`
          )
        )
      )
    );
  });
}

/** `KEY=value` lines (a value may hold `=`; colours a prompt printed are taken out). */
function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of stripVTControlCharacters(text).split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

/**
 * Resolves the login environment once, with a time limit: a shell whose dotfiles hang (or ask
 * for input) must not keep servers from starting; Taskdesk's own environment stands in then,
 * and the shell is stopped.
 */
export function resolveLoginEnvironmentOnce(
  resolver: LoginEnvResolver,
  timeoutMs = 10_000
): () => Promise<LoginEnvironment> {
  let pending: Promise<LoginEnvironment> | undefined;
  return () => {
    pending ??= new Promise<LoginEnvironment>((resolve) => {
      const limit = new AbortController();
      const timer = setTimeout(() => {
        resolve({ env: { ...process.env }, warning: `The login shell did not answer within ${timeoutMs} ms` });
        limit.abort();
      }, timeoutMs);
      timer.unref();
      resolver(limit.signal).then(
        (env) => {
          clearTimeout(timer);
          resolve({ env });
        },
        (error: unknown) => {
          clearTimeout(timer);
          resolve({
            env: { ...process.env },
            warning: `The login shell's environment could not be read: ${String(error)}`
          });
        }
      );
    });
    return pending;
  };
}
