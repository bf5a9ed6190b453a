import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerConfigInput } from '../../app/mcp/server-config.js';
import { compiledProgram } from './compiled-program.js';
import { tempDir } from './host-fixture.js';

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
      args: [compiledProgram(serverScript), stateFile],
      cwd: root
    },
    autoConnect: false,
    protocol: '2025-11-25'
  };
}

/** A fresh data directory and, beside it, the server's sign-in state with nobody signed in; `remove` takes both away. */
export function signedOutDataDir(): { dir: string; stateFile: string; remove(): void } {
  const data = tempDir();
  const stateFile = `${data.dir}-signed-in.json`;
  fs.writeFileSync(stateFile, '[]');
  return {
    dir: data.dir,
    stateFile,
    remove: () => {
      data.remove();
      fs.rmSync(stateFile, { force: true });
    }
  };
}
