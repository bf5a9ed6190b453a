import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { everythingServer } from '../support/everything-server.js';

/** Every server's process is server-everything over stdio, whatever its saved transport says. */
function hostAt(dir: string): Host {
  return createHost({
    dataDir: dir,
    autoConnect: false,
    transportFactory: () =>
      new StdioClientTransport({ command: everythingServer.transport.command, args: everythingServer.transport.args })
  });
}

describe('removing a server whose task is running', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const cases: Array<
    [string, { type: 'stdio'; command: string; args: string[] } | { type: 'http'; url: string }, string]
  > = [
    [
      'stdio',
      { type: 'stdio', command: 'everything-server', args: [] },
      'You removed Research: its process, which ran this task, was stopped.'
    ],
    [
      'HTTP',
      { type: 'http', url: 'https://research.example/mcp' },
      'You removed Research: Taskdesk no longer has its settings, so it cannot ask about this task again.'
    ]
  ];
  for (const [kind, transport, reason] of cases) {
    it(`ends its ${kind} server's task at once as lost, saying why, and keeps it so after a restart`, async () => {
      const data = tempDir();
      let host = hostAt(data.dir);
      cleanups.push(async () => {
        await host.close();
        data.remove();
      });
      await host.call('servers.add', {
        id: 'research',
        name: 'Research',
        autoConnect: false,
        transport
      });
      assert.equal((await host.call('servers.connect', { serverId: 'research' })).state.status, 'ready');
      const asked = nextEvent(host, 'inbox.added');
      const outcome = await host.call('tools.call', {
        serverId: 'research',
        name: 'simulate-research-query',
        arguments: { topic: 'python', ambiguous: true }
      });
      assert.equal(outcome.type, 'task');
      const outboundId = outcome.type === 'task' ? outcome.task.outboundId : '';
      await asked;
      const running = await host.call('outbound.get', { outboundId });
      assert.ok(['working', 'input_required'].includes(running.state), running.state);

      // At once: not when its ttl runs out.
      await host.call('servers.remove', { serverId: 'research' });
      const ended = await host.call('outbound.get', { outboundId });
      assert.equal(ended.state, 'lost');
      assert.equal(ended.reason, reason);

      await host.close();
      host = hostAt(data.dir);
      const kept = await host.call('outbound.get', { outboundId });
      assert.equal(kept.state, 'lost', 'written as it ended');
      assert.equal(kept.reason, reason);
    });
  }
});
