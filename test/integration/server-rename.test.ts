import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { EditableServer } from '../../app/contract/server-settings.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers } from '../support/oauth-test-servers.js';

/** A saved server's settings as the Edit form sends them back. */
async function editable(host: Host, serverId: string): Promise<EditableServer> {
  const { id: _id, editable: _editable, ...settings } = await host.call('servers.get', { serverId });
  return settings;
}

/** The audit entries of a server's connection (`server.state`), oldest first. */
function connectionStates(host: Host): string[] {
  return host.audit
    .read({ type: 'server.state' })
    .reverse()
    .map((entry) => String((entry.detail as { status?: unknown } | undefined)?.status));
}

describe('saving a server with only its name changed', { skip: process.platform === 'win32' }, () => {
  it('keeps its connection and running call, uses the new name for later calls; a new command still reconnects', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    try {
      await host.call('servers.add', { ...everythingServer, autoConnect: false });
      const ready = await host.call('servers.connect', { serverId: 'everything' });
      assert.equal(ready.state.status, 'ready', ready.state.reason);
      const connection = host.connection('everything');
      assert.ok(connection);

      // A plain call that runs until its question is answered.
      const asked = nextEvent(host, 'inbox.added');
      const running = host.call('tools.call', {
        serverId: 'everything',
        name: 'trigger-elicitation-request',
        arguments: {}
      });
      const question = (await asked).item;

      const saved = await host.call('servers.update', {
        serverId: 'everything',
        settings: { ...(await editable(host, 'everything')), name: 'Everything renamed' }
      });
      assert.equal(saved.reconnects, false);
      assert.equal(host.connection('everything'), connection, 'the same connection');
      const [listed] = await host.call('servers.list', {});
      assert.deepEqual([listed?.name, listed?.state.status], ['Everything renamed', 'ready']);
      assert.deepEqual(connectionStates(host), ['connecting', 'ready'], 'no disconnect, no reconnect');
      // The running call is said under the new name too (its card, its Cancel).
      const runningNow = await host.call('tools.runningCalls', {});
      assert.deepEqual(
        runningNow.map((call) => call.serverName),
        ['Everything renamed']
      );

      // The call goes on and ends with the answer given after the rename.
      await host.call('inbox.answer', { id: question.id, answer: { action: 'decline' } });
      const outcome = await running;
      assert.equal(outcome.type, 'result');

      // A call made after the rename is in History under the new name.
      const echoed = await host.call('tools.call', {
        serverId: 'everything',
        name: 'echo',
        arguments: { message: 'hi' }
      });
      assert.equal(echoed.type, 'result');
      const page = await host.call('history.list', { filter: { serverId: 'everything' } });
      const echo = page.entries.find((entry) => entry.title.includes('echo'));
      assert.equal(echo?.serverName, 'Everything renamed', JSON.stringify(page.entries));
      // And the call that ran across the rename ended under it.
      const across = page.entries.find((entry) => entry.title.includes('trigger-elicitation-request'));
      assert.equal(across?.serverName, 'Everything renamed', JSON.stringify(page.entries));

      // Another command (the same node, by another path) is how it connects: it reconnects.
      const bin = tempDir('taskdesk-node-');
      const node = path.join(bin.dir, 'node');
      fs.symlinkSync(process.execPath, node);
      try {
        const current = await editable(host, 'everything');
        assert.equal(current.transport.type, 'stdio');
        const again = nextEvent(
          host,
          'server.state',
          ({ serverId, state }) => serverId === 'everything' && state.status === 'ready'
        );
        const moved = await host.call('servers.update', {
          serverId: 'everything',
          settings: { ...current, transport: { ...current.transport, command: node } }
        });
        assert.equal(moved.reconnects, true);
        await again;
        assert.notEqual(host.connection('everything'), connection, 'a new connection');
        assert.deepEqual(connectionStates(host), ['connecting', 'ready', 'closed', 'connecting', 'ready']);
      } finally {
        bin.remove();
      }
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('tries a failed server again, as a Save of other settings does', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    try {
      // A server whose process exits at once: it fails to connect.
      const added = await host.call('servers.add', {
        id: 'broken',
        name: 'Broken',
        transport: { type: 'stdio', command: process.execPath, args: ['-e', 'process.exit(1)'] },
        autoConnect: false
      });
      const failed = await host.call('servers.connect', { serverId: added.id });
      assert.equal(failed.state.status, 'failed');

      const tried = nextEvent(
        host,
        'server.state',
        ({ serverId, state }) => serverId === added.id && state.status === 'connecting'
      );
      const saved = await host.call('servers.update', {
        serverId: added.id,
        settings: { ...(await editable(host, added.id)), name: 'Broken renamed' }
      });
      assert.equal(saved.reconnects, true);
      await tried;
      const [listed] = await host.call('servers.list', {});
      assert.equal(listed?.name, 'Broken renamed');
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('asks to sign in under its new name', async () => {
    const servers = await startOAuthTestServers({ consent: 'auto' });
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      await host.call('servers.add', {
        id: 'protected',
        name: 'Protected',
        transport: { type: 'http', url: servers.mcpUrl },
        autoConnect: false
      });
      const first = await host.call('servers.connect', { serverId: 'protected' });
      assert.match(first.state.reason ?? '', /Sign in to Protected at /);

      const failedAgain = nextEvent(
        host,
        'server.state',
        ({ serverId, state }) => serverId === 'protected' && state.status === 'failed'
      );
      await host.call('servers.update', {
        serverId: 'protected',
        settings: { ...(await editable(host, 'protected')), name: 'Renamed' }
      });
      const { state } = await failedAgain;
      assert.match(state.reason ?? '', /Sign in to Renamed at /);
    } finally {
      await host.close();
      await servers.close();
      data.remove();
    }
  });
});
