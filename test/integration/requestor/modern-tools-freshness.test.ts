import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { nextEvent } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import {
  discoverResult,
  startScriptedModernHost,
  type ScriptedModernHost,
  type ScriptedRequest
} from '../../support/scripted-modern-peer.js';

/**
 * A 2026-07-28 server's tool list is used while it is fresh (the caching utility's `ttlMs`) and
 * read again at its next use once it is stale, never polled; a list without `ttlMs` is stale at
 * once. 2025-11-25 servers keep theirs until they say it changed (tools-list-changed.test.ts).
 */
describe("a 2026-07-28 server's tool list, cached for its ttlMs", () => {
  let fixture: ScriptedModernHost | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  /** A server whose `tools/list` answers with the tools and `ttlMs` of the moment (none: refuses). */
  const serve = (clock: ManualClock, state: { tools?: string[]; ttlMs?: number }) =>
    startScriptedModernHost(
      (request: ScriptedRequest) => {
        if (request.method === 'server/discover') return discoverResult({ tools: {} });
        if (request.method !== 'tools/list' || state.tools === undefined) return undefined;
        return {
          resultType: 'complete',
          tools: state.tools.map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
          ...(state.ttlMs !== undefined && { ttlMs: state.ttlMs }),
          cacheScope: 'public'
        };
      },
      { clock }
    );
  const lists = (received: JSONRPCMessage[]) =>
    received.filter((message) => 'method' in message && message.method === 'tools/list').length;
  const names = async (host: ScriptedModernHost['host'], refresh = false) =>
    (await host.call('tools.list', { serverId: 'scripted', refresh })).map((tool) => tool.name);

  it('is used until its ttlMs runs out, then read again at its next use (not before)', async () => {
    const clock = new ManualClock();
    const state = { tools: ['alpha'], ttlMs: 60_000 };
    fixture = await serve(clock, state);
    const { host, received } = fixture;
    assert.deepEqual(await names(host), ['alpha']);
    const read = lists(received);
    state.tools = ['alpha', 'beta'];
    await clock.advance(59_999);
    assert.deepEqual(await names(host), ['alpha'], 'still fresh: the cached list');
    assert.equal(lists(received), read);
    await clock.advance(1);
    assert.equal(lists(received), read, 'nothing is read when it goes stale');
    assert.deepEqual(await names(host), ['alpha', 'beta'], 'stale: read again at its use');
    assert.equal(lists(received), read + 1);
    // A call uses the fresh list too: no read of its own.
    assert.deepEqual(await names(host), ['alpha', 'beta']);
    assert.equal(lists(received), read + 1);
  });

  it('without ttlMs the list is stale at once: each use reads it, and uses at the same moment share one read', async () => {
    const clock = new ManualClock();
    const state: { tools?: string[]; ttlMs?: number } = { tools: ['alpha'] };
    fixture = await serve(clock, state);
    const { host, received } = fixture;
    await names(host);
    const read = lists(received);
    state.tools = ['gamma'];
    assert.deepEqual(await names(host), ['gamma']);
    assert.equal(lists(received), read + 1);
    const together = await Promise.all(Array.from({ length: 20 }, () => names(host)));
    assert.ok(together.every((list) => list.join() === 'gamma'));
    assert.equal(lists(received), read + 2, 'twenty uses at once, one read');
  });

  it('a stale list is used when reading it again fails, unless the person asked for a fresh one', async () => {
    const clock = new ManualClock();
    const state: { tools?: string[]; ttlMs?: number } = { tools: ['alpha'], ttlMs: 1_000 };
    fixture = await serve(clock, state);
    const { host } = fixture;
    assert.deepEqual(await names(host), ['alpha']);
    await clock.advance(1_000);
    delete state.tools;
    assert.deepEqual(await names(host), ['alpha'], 'the stale list, the server not answering');
    await assert.rejects(names(host, true), /tools\/list|Method not found/);
    // A use that comes while a Refresh reads shares its read, and still falls back to the stale list.
    const [refreshed, used] = await Promise.allSettled([names(host, true), names(host)]);
    assert.equal(refreshed.status, 'rejected');
    assert.deepEqual(used.status === 'fulfilled' && used.value, ['alpha']);
  });

  it('a server that declares tools.listChanged is listened to: its notification makes the fresh list stale and tells the Desk', async () => {
    const clock = new ManualClock();
    const state = { tools: ['alpha'] };
    fixture = await startScriptedModernHost(
      (request: ScriptedRequest) => {
        if (request.method === 'server/discover') return discoverResult({ tools: { listChanged: true } });
        if (request.method === 'subscriptions/listen') return null;
        if (request.method !== 'tools/list') return undefined;
        return {
          resultType: 'complete',
          tools: state.tools.map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
          ttlMs: 3_600_000
        };
      },
      { clock }
    );
    const { host, received, server } = fixture;
    assert.deepEqual(await names(host), ['alpha']);
    const listen = received.find(
      (message): message is ScriptedRequest => 'method' in message && message.method === 'subscriptions/listen'
    );
    assert.ok(listen, 'the stream is opened at connect');
    assert.deepEqual(listen.params?.notifications, { toolsListChanged: true });
    assert.equal(listen.params?._meta?.['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
    const meta = { 'io.modelcontextprotocol/subscriptionId': listen.id };
    // A tool added after the first read, before the stream was acknowledged: told to nobody.
    state.tools = ['alpha', 'beta'];
    assert.deepEqual(await names(host), ['alpha'], 'fresh for its ttlMs');
    await server.send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: meta, notifications: { toolsListChanged: true } }
    });
    // Acknowledged: the list is read again at its next use, as it may have changed meanwhile.
    assert.deepEqual(await names(host), ['alpha', 'beta']);
    state.tools = ['alpha', 'delta'];
    const changed = nextEvent(host, 'tools.changed', (event) => event.serverId === 'scripted');
    await server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: meta } });
    await changed;
    assert.deepEqual(await names(host), ['alpha', 'delta'], 'read again within its ttlMs');
  });

  it('a server that refuses subscriptions/listen still lists its tools', async () => {
    const clock = new ManualClock();
    fixture = await startScriptedModernHost(
      (request: ScriptedRequest) => {
        if (request.method === 'server/discover') return discoverResult({ tools: { listChanged: true } });
        if (request.method !== 'tools/list') return undefined;
        return { resultType: 'complete', tools: [{ name: 'alpha', inputSchema: { type: 'object' } }], ttlMs: 1000 };
      },
      { clock }
    );
    assert.deepEqual(await names(fixture.host), ['alpha']);
    assert.equal((await fixture.host.call('servers.list', {})).find((s) => s.id === 'scripted')?.state.status, 'ready');
  });
});
