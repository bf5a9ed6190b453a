import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';
import { createHost } from '../../../app/host/host.js';
import type { ServerConfigInput } from '../../../app/mcp/server-config.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const stdioServer = fileURLToPath(new URL('../../support/requestor-stdio-server.ts', import.meta.url));

/** The task tool server over stdio: a process of Taskdesk's own, whose tasks live in its memory. */
const config: ServerConfigInput = {
  id: 'work',
  name: 'Work server',
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', stdioServer, '{"pollInterval":200}'],
    cwd: root
  },
  autoConnect: false
};

it('after a restart, a task of a stdio server Taskdesk started again is lost, and the reason says so as a fact', async () => {
  const data = tempDir();
  try {
    const first = createHost({ dataDir: data.dir, autoConnect: false });
    await first.call('servers.add', config);
    assert.equal((await first.connect('work')).state.status, 'ready');
    const outcome = await first.call('tools.call', {
      serverId: 'work',
      name: 'work-required',
      arguments: { durationMs: 60_000 }
    });
    assert.equal(outcome.type, 'task');
    const outboundId = outcome.type === 'task' ? outcome.task.outboundId : '';
    await first.close();

    const second = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      const lost = nextEvent(
        second,
        'outbound.changed',
        (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.state === 'lost'
      );
      assert.equal((await second.connect('work')).state.status, 'ready');
      const { task } = (await lost) as { task: { reason?: string } };
      assert.equal(
        task.reason,
        'Work server no longer has this task: it was started again since the task was created, and kept no ' +
          'tasks from before. (It answered: Failed to retrieve task: Task not found.)'
      );
    } finally {
      await second.close();
    }
  } finally {
    data.remove();
  }
});
