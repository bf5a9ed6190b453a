import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ServerConfig } from './server-config.js';
import { resolveCommand } from './command-resolution.js';

/** A stdio server's command is on no directory of the PATH (or its path is not an executable). */
export class CommandNotFoundError extends Error {
  readonly searched: string[];
  constructor(message: string, searched: string[]) {
    super(message);
    this.name = 'CommandNotFoundError';
    this.searched = searched;
  }
}

type StdioTransport = Extract<ServerConfig['transport'], { type: 'stdio' }>;

/** The variables that name a proxy (see `network-proxy.ts`), each read in two spellings. */
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'no_proxy', 'all_proxy'];

/**
 * The proxy variables of Taskdesk's own environment (`own`): a server it starts gets them as the
 * few the SDK passes on (`HOME`, `PATH`, …), so that `npx` can download it behind a proxy and it
 * can reach what it serves. Its own `env` setting still wins: a variable it sets in either
 * spelling is passed on in neither (most tools read the lower case first, which would win).
 */
function proxyVariables(own: NodeJS.ProcessEnv, its: Record<string, string> | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of PROXY_VARIABLES) {
    const spellings = [name, name.toUpperCase()];
    if (its && spellings.some((spelling) => Object.hasOwn(its, spelling))) continue;
    for (const spelling of spellings) {
      const value = own[spelling];
      if (value !== undefined && value !== '') found[spelling] = value;
    }
  }
  return found;
}

/**
 * How a stdio server is started: its command found on `path` (the login shell's PATH; the
 * server's own `PATH` env var wins), started by its full path, with that PATH and the proxy
 * variables of Taskdesk's environment (`own`) in its env.
 * Throws {@link CommandNotFoundError} instead of letting the spawn fail with `ENOENT`.
 */
export function stdioSpawnTarget(
  transport: StdioTransport,
  path: string | undefined,
  own: NodeJS.ProcessEnv = process.env
): { params: StdioServerParameters; executable: string } {
  const base = { ...getDefaultEnvironment(), ...proxyVariables(own, transport.env) };
  const PATH = transport.env?.PATH ?? path ?? base.PATH ?? process.env.PATH ?? '';
  const resolution = resolveCommand(transport.command, {
    PATH,
    ...(transport.cwd !== undefined && { cwd: transport.cwd }),
    ...(process.env.PATHEXT !== undefined && { PATHEXT: process.env.PATHEXT })
  });
  if (!resolution.found) throw new CommandNotFoundError(resolution.message, resolution.searched);
  return {
    executable: resolution.executable,
    params: {
      // Windows: the SDK's cross-spawn finds `npx.cmd` and runs it through cmd.exe; a full
      // path to a .cmd would skip that, so the command stays as written there.
      command: process.platform === 'win32' ? transport.command : resolution.executable,
      args: transport.args,
      env: { ...base, PATH, ...transport.env },
      ...(transport.cwd !== undefined && { cwd: transport.cwd }),
      stderr: 'pipe'
    }
  };
}

/**
 * How a stdio server's process ended, in words that finish "The server …": "exited with code 1",
 * "was stopped by signal SIGKILL".
 */
export function exitWords(exit: { code: number | null; signal: string | null }): string {
  if (exit.signal !== null) return `was stopped by signal ${exit.signal}`;
  return exit.code !== null ? `exited with code ${exit.code}` : 'exited';
}
