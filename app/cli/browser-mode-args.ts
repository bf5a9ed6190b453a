/**
 * Browser mode's command line, read before anything else runs: `npm run start:browser` reads it
 * before it builds the renderer, so that `--help` or a mistyped option answers at once.
 */
import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run start:browser -- [--port N] [--data-dir DIR] [--renderer-dir DIR] [--no-demo] [--new-token]

Starts Taskdesk without Electron and prints the address to open in a browser.
  --port N            listen on port N (0: any free one). Default: TASKDESK_PORT, else the last
                      launch's port (given or not) when it is free, else any free one.
  --data-dir DIR      keep Taskdesk's data in DIR. Default: TASKDESK_DATA_DIR, else ~/.taskdesk-browser
  --renderer-dir DIR  serve the Desk built in DIR. Default: the project's build/renderer
  --no-demo           do not add the demo server (server-everything) when no server is saved
  --new-token         replace the access token kept in the data directory: addresses printed
                      before stop working
  --help              print this and exit`;

/**
 * Browser mode's options from `args`. Prints the usage and exits for `--help` (0), and for an
 * unknown option, a missing value or a port that is not one (2, with what was wrong).
 */
export function readBrowserModeArgs(args: string[]) {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        port: {
          type: 'string',
          ...(process.env.TASKDESK_PORT !== undefined && { default: process.env.TASKDESK_PORT })
        },
        'data-dir': { type: 'string' },
        'renderer-dir': { type: 'string' },
        'no-demo': { type: 'boolean', default: false },
        'new-token': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false }
      }
    }).values;
  } catch (error) {
    // parseArgs throws on an unknown option or a missing value: say which, and how to call it.
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    console.error(`--port must be a port number, got ${values.port}`);
    process.exit(2);
  }
  return { ...values, port };
}
