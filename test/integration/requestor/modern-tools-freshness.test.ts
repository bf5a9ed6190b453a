import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
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
  });
});
