/**
 * A Taskdesk host in its own process whose History never finishes a write (its journal's syncs
 * never return), for the unclean-stop test: `node --import tsx held-history-host.ts <dataDir>`.
 *
 * It starts on a data directory holding an earlier run's record of open work, and prints `held`
 * once History's write of what that record held is waiting for its sync: the test kills it then.
 */
import { Host } from '../../app/host/host.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: held-history-host.ts <dataDir>');
let said = false;
const host = new Host({
  dataDir,
  autoConnect: false,
  historyJournalSync: () => {
    if (said) return;
    said = true;
    process.stdout.write('held\n');
  }
});
host.start();
// Nothing else keeps this process alive while its sync is held: it waits to be killed.
setInterval(() => undefined, 60_000);
