import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSentence } from '../../app/contract/audit-words.js';
import { HistoryEntrySchema } from '../../app/contract/history.js';
import type { HostEventPayload } from '../../app/contract/host-api.js';
import type { EditableServer } from '../../app/contract/server-settings.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, peerServer, tempDir, type PeerServer } from '../support/host-fixture.js';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
});

/**
 * A host with one server saved from the Desk (`servers.add`: Remove and Edit take only those),
 * a stdio server whose every process is the in-memory `peer`, connected.
 */
async function savedServer(peer: PeerServer, cleanups: Array<() => Promise<void>>): Promise<Host> {
  const data = tempDir();
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    transportFactory: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void peer.server.connect(serverSide);
      return clientSide;
    }
  });
  cleanups.push(async () => {
    await host.close();
    await peer.server.close().catch(() => undefined);
    data.remove();
  });
  await host.call('servers.add', {
    id: 'books',
    name: 'Books',
    autoConnect: false,
    transport: { type: 'stdio', command: 'books-server', args: ['--shelf', 'one'] }
  });
  const view = await host.call('servers.connect', { serverId: 'books' });
  assert.equal(view.state.status, 'ready', view.state.reason);
  return host;
}

/**
 * The server asks something outside a task (an ordinary request, answered on the connection that
 * asked); resolves once it waits in the Inbox, with what its Inbox removal and History entry say
 * when it goes.
 */
async function asked(host: Host, peer: PeerServer, kind: 'question' | 'model request', text: string) {
  const added = nextEvent(host, 'inbox.added', ({ item }) =>
    kind === 'question'
      ? item.request.message === text
      : JSON.stringify(item.request.messages).includes(JSON.stringify(text))
  );
  const request = (
    kind === 'question'
      ? peer.server.request({ method: 'elicitation/create', params: form(text) }, ElicitResultSchema)
      : peer.server.request(
          {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 20 }
          },
          CreateMessageResultSchema
        )
  ).catch(() => undefined);
  const { item } = await added;
  return {
    item,
    request,
    removed: nextEvent(host, 'inbox.removed', ({ id }) => id === item.id),
    entry: nextEvent(
      host,
      'history.changed',
      ({ entry }) => entry.status === 'cancelled' && entry.serverId === 'books' && entry.kind === item.kind
    )
  };
}

const said = (removed: HostEventPayload<'inbox.removed'>) => ({
  why: removed.why,
  reason: removed.reason,
  byYou: removed.byYou
});

/** What History says of an entry that ended: who cancelled it, and why, in its list and its timeline. */
async function historySays(host: Host, entry: HostEventPayload<'history.changed'>['entry']) {
  const detail = HistoryEntrySchema.parse(await host.call('history.get', { id: entry.id }));
  return { cancelledBy: entry.cancelledBy, statusMessage: entry.statusMessage, last: detail.timeline.at(-1)?.message };
}

/** The audit log’s sentence for the withdrawal of the question `question`. */
function auditedWithdrawal(host: Host, question: string): string | undefined {
  host.audit.flush();
  const withdrawn = host.audit
    .read({ limit: 100 })
    .find(
      (audited) =>
        audited.type === 'inbox.withdrawn' &&
        (audited.detail as { question?: unknown } | undefined)?.question === question
    );
  return withdrawn && auditSentence(withdrawn);
}

async function settingsOf(host: Host): Promise<EditableServer> {
  const { id: _id, editable: _editable, ...settings } = await host.call('servers.get', { serverId: 'books' });
  return settings;
}

describe('what a Remove or a restarting Save breaks off of a server’s requests outside a task', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is said to be ended by the person who removed the server, not cancelled by the server', async () => {
    const peer = peerServer();
    const host = await savedServer(peer, cleanups);

    const question = await asked(host, peer, 'question', 'Ship the release now?');
    const model = await asked(host, peer, 'model request', 'Summarise chapter one');
    await host.call('servers.remove', { serverId: 'books' });
    await Promise.all([question.request, model.request]);

    for (const ended of [question, model]) {
      // The Inbox's withdrawal: the person's own doing, and what they did.
      assert.deepEqual(said(await ended.removed), { why: 'withdrawn', reason: 'You removed Books.', byYou: true });
      // History: cancelled by the person, and how.
      assert.deepEqual(await historySays(host, (await ended.entry).entry), {
        cancelledBy: 'you',
        statusMessage: 'You removed Books before it was answered',
        last: 'You removed Books before it was answered'
      });
    }
    // The audit log says the same, not "The server withdrew a question".
    assert.equal(
      auditedWithdrawal(host, 'Ship the release now?'),
      'A question was closed without an answer: “Ship the release now?” You removed Books.'
    );
  });

  it('is said to be ended by the person’s Save that restarted the server; once it is connected again, the server’s own cancel and Taskdesk’s disconnect are not', async () => {
    const peer = peerServer();
    const host = await savedServer(peer, cleanups);

    const question = await asked(host, peer, 'question', 'Which region?');
    const model = await asked(host, peer, 'model request', 'Translate the blurb');
    // Other arguments: how the server is reached changes, so Taskdesk starts it again.
    const ready = nextEvent(
      host,
      'server.state',
      ({ serverId, state }) => serverId === 'books' && state.status === 'ready'
    );
    const saved = await host.call('servers.update', {
      serverId: 'books',
      settings: {
        ...(await settingsOf(host)),
        transport: { type: 'stdio', command: 'books-server', args: ['--shelf', 'two'], env: [] }
      }
    });
    assert.equal(saved.reconnects, true);
    await Promise.all([question.request, model.request]);

    const words = 'You changed Books’s settings, and Taskdesk restarted it';
    for (const ended of [question, model]) {
      assert.deepEqual(said(await ended.removed), { why: 'withdrawn', reason: `${words}.`, byYou: true });
      assert.deepEqual(await historySays(host, (await ended.entry).entry), {
        cancelledBy: 'you',
        statusMessage: `${words} before it was answered`,
        last: `${words} before it was answered`
      });
    }
    assert.equal(
      auditedWithdrawal(host, 'Which region?'),
      `A question was closed without an answer: “Which region?” ${words}.`
    );

    // Connected again (the new process): the server takes its own question back, as before.
    await ready;
    const controller = new AbortController();
    const added = nextEvent(host, 'inbox.added', ({ item }) => item.request.message === 'Approve the refund?');
    const own = peer.server
      .request({ method: 'elicitation/create', params: form('Approve the refund?') }, ElicitResultSchema, {
        signal: controller.signal
      })
      .catch(() => undefined);
    const { item: ownItem } = await added;
    const ownRemoved = nextEvent(host, 'inbox.removed', ({ id }) => id === ownItem.id);
    const ownEntry = nextEvent(
      host,
      'history.changed',
      ({ entry }) => entry.title === 'Approve the refund?' && entry.status === 'cancelled'
    );
    controller.abort('No longer needed');
    await own;
    assert.deepEqual(said(await ownRemoved), { why: 'withdrawn', reason: undefined, byYou: undefined });
    assert.equal((await ownEntry).entry.cancelledBy, 'server');

    // Taskdesk closes the connection itself (not the person's act): not said as theirs.
    const closed = await asked(host, peer, 'question', 'Which shelf?');
    await host.disconnect('books');
    await closed.request;
    assert.deepEqual(said(await closed.removed), { why: 'withdrawn', reason: undefined, byYou: undefined });
    assert.equal((await closed.entry).entry.cancelledBy, 'server');
  });
});
