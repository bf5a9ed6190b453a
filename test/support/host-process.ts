/**
 * A Taskdesk host in its own process, for the crash test: `node --import tsx host-process.ts <dataDir>`.
 *
 * It connects to the task peer over stdio in flood mode (env passed through) and answers every
 * sampling task at once. Rate limits are raised so that the flood measures persistence, not limits.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../../app/host/host.js';
import { instantSamplingRunner } from './instant-runner.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: host-process.ts <dataDir>');
const peer = path.join(path.dirname(fileURLToPath(import.meta.url)), 'task-peer-server.ts');
createHost({
  dataDir,
  policy: { operationsPerSecond: 1e6, operationsBurst: 1e6, maxActiveTasksPerServer: 1e6 },
  sampling: () => instantSamplingRunner(),
  servers: [
    {
      id: 'flood',
      name: 'Flood',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: ['--import', 'tsx', peer],
        env: { ...process.env } as Record<string, string>
      }
    }
  ]
});
