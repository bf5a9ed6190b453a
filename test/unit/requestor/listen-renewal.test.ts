import assert from 'node:assert/strict';
import { once, EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { AttachmentRegistry } from '../../../app/requestor/attachments.js';
import { notificationClient } from '../../support/notification-client.js';
import type { ModernPeer } from '../../../app/requestor/modern-task-follower.js';

/**
 * A 2026-07-28 peer that declared `listChanged` for `lists` (the tools' by default) and keeps every
 * `subscriptions/listen` open until its signal aborts; `filters` holds what each stream asked for.
 */
function listeningPeer(listenRenewalMs?: number, lists: NonNullable<ModernPeer['listChanged']> = { tools: true }) {
  const opened = new EventEmitter();
  const streams: AbortSignal[] = [];
  const filters: unknown[] = [];
  const peer: ModernPeer = {
    acceptsTasks: false,
    listChanged: lists,
    ...(listenRenewalMs !== undefined && { listenRenewalMs }),
    request: (method, params, options) => {
      assert.equal(method, 'subscriptions/listen');
      const signal = options.signal!;
      streams.push(signal);
      filters.push(params.notifications);
      opened.emit('opened');
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
      );
    },
    answerInput: () => Promise.reject(new Error('not asked'))
  };
  return { peer, streams, filters, opened };
}

describe('the subscriptions/listen stream of a 2026-07-28 server', () => {
  it('is opened anew at each renewal (HTTP), one at a time, and ends for good when the server is detached', async () => {
    const { peer, streams, opened } = listeningPeer(5);
    const registry = new AttachmentRegistry();
    registry.add('s', 'S', notificationClient(), { modern: peer });
    assert.equal(streams.length, 1);
    // Renewed twice: each earlier stream was ended first. The renewal's timer does not hold the
    // process open (a host closing must not wait for it): this test holds it while it waits.
    const hold = setInterval(() => undefined, 60_000);
    while (streams.length < 3) await once(opened, 'opened');
    clearInterval(hold);
    assert.deepEqual(
      streams.map((signal) => signal.aborted),
      [true, true, false]
    );
    registry.remove('s');
    assert.equal(streams[2]!.aborted, true);
    const count = streams.length;
    // Nothing opens after the detach, however long a renewal would have taken.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(streams.length, count);
  });

  it('is not renewed over stdio (no renewal given): one stream while attached', () => {
    const { peer, streams } = listeningPeer();
    const registry = new AttachmentRegistry();
    registry.add('s', 'S', notificationClient(), { modern: peer });
    assert.equal(streams.length, 1);
    registry.remove('s');
    assert.equal(streams[0]!.aborted, true);
    assert.equal(streams.length, 1);
  });

  it('asks for the list changes the server declared, and tells of prompts and resources apart from tools', () => {
    const { peer, streams, filters } = listeningPeer(undefined, { prompts: true, resources: true });
    const told: string[] = [];
    const registry = new AttachmentRegistry({
      onToolsChanged: () => told.push('tools'),
      onToolsStale: () => told.push('tools stale'),
      onSourcesChanged: (attachment) => told.push(`sources of ${attachment.serverId}`)
    });
    const client = notificationClient();
    registry.add('s', 'S', client, { modern: peer });
    // Only what it declared: a server must not send what was not asked for.
    assert.deepEqual(filters, [{ promptsListChanged: true, resourcesListChanged: true }]);
    assert.equal(client.handlers.has('notifications/tools/list_changed'), false);
    client.handlers.get('notifications/prompts/list_changed')!({ method: 'notifications/prompts/list_changed' });
    client.handlers.get('notifications/resources/list_changed')!({ method: 'notifications/resources/list_changed' });
    // Its acknowledgement says nothing of a tool list it does not tell of.
    client.handlers.get('notifications/subscriptions/acknowledged')!({
      method: 'notifications/subscriptions/acknowledged'
    });
    assert.deepEqual(told, ['sources of s', 'sources of s']);
    // Opened again (a renewal): a change made while no stream was open was heard by nobody, so a
    // list on show is read again; the first opening said nothing of the kind.
    client.handlers.get('notifications/subscriptions/acknowledged')!({
      method: 'notifications/subscriptions/acknowledged'
    });
    assert.deepEqual(told, ['sources of s', 'sources of s', 'sources of s']);
    registry.remove('s');
    assert.equal(streams[0]!.aborted, true);
    assert.deepEqual([...client.handlers.keys()], []);
  });

  it('opens no stream to a server that declared no list changes', () => {
    const { peer, streams } = listeningPeer(undefined, {});
    const client = notificationClient();
    new AttachmentRegistry().add('s', 'S', client, { modern: peer });
    assert.equal(streams.length, 0);
    assert.deepEqual([...client.handlers.keys()], []);
  });

  it('hears every list change of a 2025-11-25 server, unasked, and takes its handlers off when it is detached', () => {
    const told: string[] = [];
    const registry = new AttachmentRegistry({
      onToolsChanged: () => told.push('tools'),
      onSourcesChanged: () => told.push('sources')
    });
    const client = notificationClient();
    registry.add('s', 'S', client, { statusNotifications: false });
    for (const method of [
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed'
    ])
      client.handlers.get(method)!({ method });
    assert.deepEqual(told, ['tools', 'sources', 'sources']);
    registry.remove('s');
    assert.deepEqual([...client.handlers.keys()], []);
  });
});
