import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../../../app/host/host.js';
import { startScriptedModernHost, promptsOnly, type ScriptedModernHost } from '../../support/scripted-modern-peer.js';
import { tempDir } from '../../support/host-fixture.js';
import { CAPABILITIES_KEY } from '../../support/modern-requestor.js';

/**
 * Roots towards a 2026-07-28 server. That revision removed `notifications/roots/list_changed`
 * (changelog, SEP-2575; the only notification a client sends is `notifications/cancelled`), and
 * with it the `listChanged` of the `roots` client capability (the schema's `roots` is `{}`): a
 * server asks for roots inside each request it needs them for, so a change needs no notice.
 *
 * The server is a scripted JSON-RPC peer at the far end of an in-memory transport pair, which
 * records every message the host sends it, in order.
 */

describe('roots towards a 2026-07-28 server', () => {
  const folders = tempDir('taskdesk-roots-');
  let peer: ScriptedModernHost;
  let received: JSONRPCMessage[];
  let host: Host;

  before(async () => {
    peer = await startScriptedModernHost(promptsOnly);
    ({ host, received } = peer);
  });

  after(async () => {
    await peer.dispose();
    folders.remove();
  });

  it('declares roots without listChanged in the envelope, which the revision no longer has', async () => {
    await host.call('prompts.get', { serverId: 'scripted', name: 'any' });
    const request = received.findLast((m) => 'method' in m && m.method === 'prompts/get');
    const params = (request && 'params' in request ? request.params : undefined) as
      { _meta?: Record<string, { roots?: unknown }> } | undefined;
    assert.deepEqual(params?._meta?.[CAPABILITIES_KEY]?.roots, {});
  });

  it('sends no notifications/roots/list_changed when the folders change: only a legacy server is told', async () => {
    await host.call('roots.set', { serverId: 'scripted', folders: [folders.dir] });
    // A request sent after the change arrives after anything the change sent (one ordered transport).
    await host.call('prompts.get', { serverId: 'scripted', name: 'after' });
    const methods = received.map((m) => ('method' in m ? m.method : undefined));
    assert.ok(methods.includes('prompts/get'));
    assert.deepEqual(
      methods.filter((m) => m?.startsWith('notifications/')),
      [],
      'no notification goes to a modern server for a roots change'
    );
  });
});
