/**
 * A Taskdesk host in its own process with plain work open, for the unclean-stop test:
 * `node --import tsx open-work-host.ts <dataDir>`.
 *
 * It connects `open-work-server.ts` over stdio and calls its tool `wait` without a task (which
 * never answers, and asks a question that waits in the Inbox), then prints `recorded` once the
 * record of open work holds both: the test kills it then.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../../app/host/host.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: open-work-host.ts <dataDir>');
const server = path.join(path.dirname(fileURLToPath(import.meta.url)), 'open-work-server.ts');
let said = false;
const host = createHost({
  dataDir,
  autoConnect: false,
  loginEnv: async () => ({ ...process.env }),
  servers: [
    {
      id: 'slow',
      name: 'Slow server',
      transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', server] }
    }
  ],
  openWorkWritten: (open) => {
    if (open < 2 || said) return;
    said = true;
    process.stdout.write('recorded\n');
  }
});
const view = await host.connect('slow');
if (view.state.status !== 'ready') throw new Error(`The server did not connect: ${view.state.reason}`);
void host
  .call('tools.call', { serverId: 'slow', name: 'wait', arguments: { label: 'nightly' } })
  .catch(() => undefined);
