import { createRequire } from 'node:module';
import type { ServerConfigInput } from '../contract/host-api.js';
import type { Host } from '../host/host.js';

/** The id the demo server is saved under. */
export const DEMO_SERVER_ID = 'everything';

/** How to run a Node script: plain Node, or Electron's binary with `ELECTRON_RUN_AS_NODE`. */
export interface NodeRuntime {
  command: string;
  env?: Record<string, string>;
}

/**
 * The bundled `@modelcontextprotocol/server-everything` over stdio, so a fresh install has a
 * server to talk to. Undefined when the package is not installed (it is a dev dependency, so a
 * packaged app has none).
 */
export function demoServerConfig(runtime: NodeRuntime = { command: process.execPath }): ServerConfigInput | undefined {
  let script: string;
  try {
    script = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  } catch {
    return undefined;
  }
  return {
    id: DEMO_SERVER_ID,
    name: 'Everything (demo)',
    transport: {
      type: 'stdio',
      command: runtime.command,
      args: [script, 'stdio'],
      ...(runtime.env && { env: runtime.env })
    },
    autoConnect: true
  };
}

/**
 * Saves and connects the demo server on a first launch (no server list was ever saved); returns
 * whether it did.
 *
 * It is saved rather than passed as a config server so that the user can remove it like any
 * other, and once removed it stays removed.
 */
export async function addDemoServerIfNone(
  host: Pick<Host, 'call' | 'serverListSaved' | 'addServerByTaskdesk'>,
  config: ServerConfigInput | undefined
): Promise<boolean> {
  if (!config || host.serverListSaved) return false;
  const servers = await host.call('servers.list', {});
  if (servers.length > 0) return false;
  // Taskdesk's doing, not the person's: the audit log says Taskdesk added it. Its connect is
  // started, not awaited: a slow server start must not hold up the window or the URL.
  await host.addServerByTaskdesk(config);
  return true;
}
