/**
 * Browser mode: the Taskdesk core and UI without Electron.
 *
 *   node --import tsx app/cli/browser-mode.ts [--port N] [--data-dir DIR] [--renderer-dir DIR] [--no-demo] [--new-token]
 *
 * (Not as the child of the `tsx` command: it relays a SIGTERM or SIGINT and kills its child with
 * SIGKILL when the child has not said that the signal came within 30 ms, twice, which a close that
 * keeps the event loop busy longer (closing a Streamable HTTP connection with a task open) cannot
 * say: the close was cut off before it removed the running marker, and the next start told of an
 * unclean stop. So `npm run start:browser` runs `node --import tsx` too.)
 *
 * Starts the host (data in `--data-dir`, `TASKDESK_DATA_DIR`, or ~/.taskdesk-browser), serves
 * the built renderer on 127.0.0.1 and prints the URL to open; the URL carries the access token,
 * which is kept in the data directory, so a tab left open works again after a restart.
 * Without `--port` (or `TASKDESK_PORT`) it listens on the port of its last launch when that is
 * free, otherwise on any free one (`--port 0` always picks a free one); the port of every launch,
 * one given included, is the one the next launch comes back on. Ctrl+C (SIGINT) or SIGTERM closes
 * the host and the server, and prints "Taskdesk closed." with what the close cancelled, if anything.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBrowserServer } from '../browser/browser-server.js';
import { listenOnPreferredPort } from '../browser/preferred-port.js';
import { loadOrCreateToken } from '../browser/token-file.js';
import { confStoreFactory } from '../store/json-file-store.js';
import { createHost } from '../host/host.js';
import { setHostHeapGrowth } from '../host/heap-growth.js';
import { addDemoServerIfNone, demoServerConfig } from './demo-server.js';
import { builtRendererDir } from './package-root.js';
import { readBrowserModeArgs } from './browser-mode-args.js';

const values = readBrowserModeArgs(process.argv.slice(2));

const { port } = values;
const dataDir = path.resolve(
  values['data-dir'] ?? process.env.TASKDESK_DATA_DIR ?? path.join(os.homedir(), '.taskdesk-browser')
);
const rendererDir = path.resolve(values['renderer-dir'] ?? builtRendererDir());
if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
  console.error(`No built renderer in ${rendererDir}. Run \`npm run build\` first.`);
  process.exit(1);
}

setHostHeapGrowth();
const host = createHost({ dataDir });
for (const warning of host.warnings)
  console.warn(`warning: ${warning.message}${warning.movedTo ? ` (moved to ${warning.movedTo})` : ''}`);
if (!values['no-demo'] && (await addDemoServerIfNone(host, demoServerConfig()))) {
  console.log('No servers were saved: added the bundled demo server (server-everything).');
}
const loaded = loadOrCreateToken(dataDir, { rotate: values['new-token'] });
if (loaded.message) console.warn(`warning: ${loaded.message}`);
if (values['new-token'] && !loaded.message)
  console.log('Made a new access token: tabs opened at an earlier address must open the one below.');
const start = (listenOn: number) => startBrowserServer({ host, rendererDir, port: listenOn, token: loaded.token });
// The port given is remembered too: the next launch without --port comes back on it.
const server = await listenOnPreferredPort({
  dataDir,
  corruptDir: path.join(dataDir, 'corrupt'),
  factory: confStoreFactory,
  start,
  ...(port !== undefined && { port })
}).then(({ server: started, warning }) => {
  if (warning) console.warn(`warning: ${warning}`);
  return started;
});
console.log(`Taskdesk data: ${dataDir}`);
console.log(`Open ${server.url}`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await host.close();
  // As its start-up lines are said: what the close cancelled, which the next start tells again.
  const { closedWords } = host;
  // Exits once the line is written: on macOS a write to a pipe (`| tee`) is asynchronous, and an
  // exit straight after it could lose the line.
  const line = closedWords === undefined ? 'Taskdesk closed.' : `Taskdesk closed. ${closedWords}`;
  process.stdout.write(`${line}\n`, () => process.exit(0));
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
