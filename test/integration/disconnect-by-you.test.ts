import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSentence } from '../../app/contract/audit-words.js';
import { HistoryEntrySchema } from '../../app/contract/history.js';
import type { HostEventPayload } from '../../app/contract/host-api.js';
import type { Host } from '../../app/host/host.js';
import { nextEvent, peerServer, startHostWith, type PeerServer } from '../support/host-fixture.js';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
});

/**
 * The server asks a question outside a task (an ordinary request, answered on the connection that
 * asked); resolves once it waits in the Inbox, with what its Inbox removal and History entry say
 * when it goes.
 */
async function asked(host: Host, peer: PeerServer, message: string, signal?: AbortSignal) {
  const added = nextEvent(host, 'inbox.added', ({ item }) => item.request.message === message);
  const request = peer.server
    .request({ method: 'elicitation/create', params: form(message) }, ElicitResultSchema, signal && { signal })
    .catch(() => undefined);
  const { item } = await added;
  return {
    request,
    removed: nextEvent(host, 'inbox.removed', ({ id }) => id === item.id),
    entry: nextEvent(host, 'history.changed', ({ entry }) => entry.title === message && entry.status === 'cancelled')
  };
}

const said = (removed: HostEventPayload<'inbox.removed'>) => ({
  why: removed.why,
  reason: removed.reason,
  byYou: removed.byYou
});

describe('a question outside a task that a Disconnect breaks off', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is said to be ended by the person who disconnected its server, not cancelled by the server', async () => {
    const peer = peerServer();
    const fixture = await startHostWith({ a: peer });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;

    const question = await asked(host, peer, 'Ship the release now?');
    const view = await host.call('servers.disconnect', { serverId: 'a' });
    assert.equal(view.state.reason, 'Disconnected by you');
    await question.request;
    // The Inbox's withdrawal: the person's own doing, with why (no warning of it; said as theirs).
    assert.deepEqual(said(await question.removed), {
      why: 'withdrawn',
      reason: 'You disconnected Server a.',
      byYou: true
    });
    // History: cancelled by the person, and how.
    const { entry } = await question.entry;
    assert.equal(entry.cancelledBy, 'you');
    assert.equal(entry.statusMessage, 'You disconnected Server a before it was answered');
    const detail = HistoryEntrySchema.parse(await host.call('history.get', { id: entry.id }));
    assert.deepEqual(detail.timeline.at(-1)?.message, 'You disconnected Server a before it was answered');
    // The audit log says the same, not "The server withdrew a question".
    host.audit.flush();
    const withdrawn = host.audit.read({ limit: 100 }).find((audited) => audited.type === 'inbox.withdrawn');
    assert.ok(withdrawn);
    assert.equal(
      auditSentence(withdrawn),
      'A question was closed without an answer: “Ship the release now?” You disconnected Server a.'
    );
  });

  it('is still the server’s doing when the server cancels it, or Taskdesk disconnects, once connected again', async () => {
    const peer = peerServer();
    const fixture = await startHostWith({ a: peer });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    await host.call('servers.disconnect', { serverId: 'a' });
    assert.equal((await host.connect('a')).state.status, 'ready');

    // The server takes its own question back: as before, the server's doing.
    const controller = new AbortController();
    const own = await asked(host, peer, 'Approve the refund?', controller.signal);
    controller.abort('No longer needed');
    await own.request;
    assert.deepEqual(said(await own.removed), { why: 'withdrawn', reason: undefined, byYou: undefined });
    const ownEntry = (await own.entry).entry;
    assert.equal(ownEntry.cancelledBy, 'server');
    assert.equal(ownEntry.statusMessage, 'The server cancelled the request: No longer needed');

    // Taskdesk closes the connection itself (not the person's Disconnect): not said as theirs.
    const closed = await asked(host, peer, 'Which region?');
    await host.disconnect('a');
    await closed.request;
    assert.deepEqual(said(await closed.removed), { why: 'withdrawn', reason: undefined, byYou: undefined });
    const closedEntry = (await closed.entry).entry;
    assert.equal(closedEntry.cancelledBy, 'server');
    assert.equal(
      closedEntry.statusMessage,
      'The server cancelled the request, or its connection closed, before it was answered'
    );
  });
});
