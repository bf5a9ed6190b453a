import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { ManualClock } from '../support/manual-clock.js';
import { mrtrServer } from '../support/mrtr-host.js';
import { nextEvent, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';

const form = {
  mode: 'form' as const,
  message: 'Your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } }
};

/** What `servers.list` says a server's `waits` are. */
async function waitsOf(fixture: InMemoryHostFixture | { host: Host }, serverId: string) {
  const listed = await fixture.host.dispatch('servers.list', {});
  assert.ok(listed.ok);
  return listed.result.find((server) => server.id === serverId)?.waits;
}

describe('how long each server waits for an ordinary request’s answer, as Taskdesk has seen it', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('notes the longest wait sat through and the shortest given up after, tells the windows, and keeps them over a restart', async () => {
    const clock = new ManualClock();
    const patient = peerServer('patient');
    const hasty = peerServer('hasty');
    let fixture = await startHostWith({ a: patient, b: hasty }, { clock });
    const dir = fixture.dir;
    cleanups.push(() => fixture.dispose());
    assert.equal(await waitsOf(fixture, 'a'), undefined, 'nothing seen yet');

    // Answered after four minutes: server a sat through that wait.
    const added = nextEvent(fixture.host, 'inbox.added');
    const answered = patient.server.elicitInput(form);
    const { item } = await added;
    await clock.advance(240_500);
    const told = nextEvent(fixture.host, 'servers.changed');
    const answer = await fixture.host.dispatch('inbox.answer', {
      id: item.id,
      answer: { action: 'accept', content: { name: 'Ada' } }
    });
    assert.ok(answer.ok);
    assert.equal((await answered).action, 'accept');
    assert.deepEqual((await told).servers.find((server) => server.id === 'a')?.waits, { longestMs: 240_000 });
    assert.deepEqual(await waitsOf(fixture, 'a'), { longestMs: 240_000 });

    // Server b withdraws its request after 30 s, saying it timed out (as the SDK's timeout does).
    const askedB = nextEvent(fixture.host, 'inbox.added');
    const controller = new AbortController();
    const timedOut = hasty.server.elicitInput(form, { signal: controller.signal }).catch((error: unknown) => error);
    await askedB;
    await clock.advance(30_000);
    const toldB = nextEvent(fixture.host, 'servers.changed');
    controller.abort('McpError: MCP error -32001: Request timed out');
    assert.ok((await timedOut) instanceof Error);
    assert.deepEqual((await toldB).servers.find((server) => server.id === 'b')?.waits, { gaveUpAfterMs: 30_000 });

    // A cancel that does not say it timed out tells nothing: it may be its caller stopping.
    const askedAgain = nextEvent(fixture.host, 'inbox.added');
    const other = new AbortController();
    const cancelled = hasty.server.elicitInput(form, { signal: other.signal }).catch((error: unknown) => error);
    const { item: again } = await askedAgain;
    await clock.advance(10_000);
    const removed = nextEvent(fixture.host, 'inbox.removed', ({ id }) => id === again.id);
    other.abort('changed its mind');
    await cancelled;
    await removed;
    assert.deepEqual(await waitsOf(fixture, 'b'), { gaveUpAfterMs: 30_000 });

    await fixture.stop();
    fixture = await startHostWith({ a: peerServer('patient'), b: peerServer('hasty') }, { clock, dir });
    assert.deepEqual(await waitsOf(fixture, 'a'), { longestMs: 240_000 }, 'kept over a restart');
    assert.deepEqual(await waitsOf(fixture, 'b'), { gaveUpAfterMs: 30_000 });

    // A server Taskdesk is no longer given forgets them: one given again under its id is another.
    await fixture.stop();
    fixture = await startHostWith({ b: peerServer('hasty') }, { clock, dir });
    await fixture.stop();
    fixture = await startHostWith({ a: peerServer('patient'), b: peerServer('hasty') }, { clock, dir });
    assert.equal(await waitsOf(fixture, 'a'), undefined);
    assert.deepEqual(await waitsOf(fixture, 'b'), { gaveUpAfterMs: 30_000 });
  });

  it('tells nothing of a request still open when Taskdesk closes: the server may have stopped waiting without a word', async () => {
    const clock = new ManualClock();
    const peer = peerServer();
    let fixture = await startHostWith({ a: peer }, { clock });
    const dir = fixture.dir;
    cleanups.push(() => fixture.dispose());
    const added = nextEvent(fixture.host, 'inbox.added');
    const open = peer.server.elicitInput(form).catch((error: unknown) => error);
    await added;
    await clock.advance(125_000);
    await fixture.stop();
    await open;
    fixture = await startHostWith({ a: peerServer() }, { clock, dir });
    assert.equal(await waitsOf(fixture, 'a'), undefined);
  });

  it('forgets a removed server’s waits: one added again under its id is another server', async () => {
    const clock = new ManualClock();
    const data = tempDir();
    const peer = peerServer();
    const host = createHost({
      dataDir: data.dir,
      clock,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      transportFactory: () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void peer.server.connect(serverSide);
        return clientSide;
      }
    });
    cleanups.push(async () => {
      await host.close();
      data.remove();
    });
    const saved = { id: 'a', name: 'Server a', transport: { type: 'stdio' as const, command: 'in-memory-a' } };
    await host.call('servers.add', saved);
    assert.equal((await host.connect('a')).state.status, 'ready');
    const added = nextEvent(host, 'inbox.added');
    const answered = peer.server.elicitInput(form);
    const { item } = await added;
    await clock.advance(100_000);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    await answered;
    assert.deepEqual(await waitsOf({ host }, 'a'), { longestMs: 100_000 });

    await host.call('servers.remove', { serverId: 'a' });
    await host.call('servers.add', saved);
    assert.equal(await waitsOf({ host }, 'a'), undefined);
  });

  it('tells nothing of a 2026-07-28 server by a multi round-trip request’s question: Taskdesk holds it, the server does not wait', async () => {
    const clock = new ManualClock();
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, clock, autoConnect: false, keyStore: new InMemoryKeyStore() });
    cleanups.push(async () => {
      await host.close();
      data.remove();
    });
    await host.call('servers.add', mrtrServer);
    assert.equal((await host.connect('mrtr')).state.era, 'modern');
    const added = nextEvent(host, 'inbox.added');
    const calling = host.call('tools.call', { serverId: 'mrtr', name: 'ask-name', arguments: {} });
    const { item } = await added;
    assert.equal(item.relatedCall, true);
    await clock.advance(200_000);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    assert.equal((await calling).type, 'result');
    assert.equal(await waitsOf({ host }, 'mrtr'), undefined);
  });
});
