import { fileURLToPath } from 'node:url';
import type { ServerConfigInput } from '../../app/mcp/server-config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const serverScript = fileURLToPath(new URL('./url-required-server.ts', import.meta.url));

/**
 * The configuration of `url-required-server.ts` (a 2025-11-25 server whose tools need a sign-in
 * first) as "Files server", id `files`, with its sign-in kept in `stateFile`.
 */
export function urlRequiredServerConfig(stateFile: string): ServerConfigInput {
  return {
    id: 'files',
    name: 'Files server',
    transport: {
      type: 'stdio',
      command: process.execPath,
      args: ['--import', 'tsx', serverScript, stateFile],
      cwd: root
    },
    autoConnect: false,
    protocol: '2025-11-25'
  };
}
