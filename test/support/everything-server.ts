import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The reference `@modelcontextprotocol/server-everything` over stdio, as a Taskdesk server config (id `everything`). */
export const everythingServer = {
  id: 'everything',
  name: 'Everything',
  transport: {
    type: 'stdio' as const,
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio']
  }
};
