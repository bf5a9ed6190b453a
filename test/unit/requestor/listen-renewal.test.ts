import assert from 'node:assert/strict';
import { once, EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AttachmentRegistry } from '../../../app/requestor/attachments.js';
import type { ModernPeer } from '../../../app/requestor/modern-task-follower.js';

/** A client that only keeps its notification handlers (all the registry does with it). */
function fakeClient(): Client {
  const handlers = new Map<string, unknown>();
  return {
    setNotificationHandler: (schema: { shape: { method: { value: string } } }, handler: unknown) =>
      handlers.set(schema.shape.method.value, handler),
    removeNotificationHandler: (method: string) => handlers.delete(method)
  } as unknown as Client;
}

/** A 2026-07-28 peer that declared tools.listChanged and keeps every `subscriptions/listen` open until its signal aborts. */
function listeningPeer(listenRenewalMs?: number) {
  const opened = new EventEmitter();
  const streams: AbortSignal[] = [];
  const peer: ModernPeer = {
    acceptsTasks: false,
    toolsListChanged: true,
    ...(listenRenewalMs !== undefined && { listenRenewalMs }),
    request: (method, _params, options) => {
      assert.equal(method, 'subscriptions/listen');
      const signal = options.signal!;
      streams.push(signal);
      opened.emit('opened');
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
      );
    },
    answerInput: () => Promise.reject(new Error('not asked'))
  };
  return { peer, streams, opened };
}

describe('the subscriptions/listen stream of a 2026-07-28 server', () => {
  it('is opened anew at each renewal (HTTP), one at a time, and ends for good when the server is detached', async () => {
    const { peer, streams, opened } = listeningPeer(5);
    const registry = new AttachmentRegistry(() => undefined);
    registry.add('s', 'S', fakeClient(), { modern: peer });
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
    const registry = new AttachmentRegistry(() => undefined);
    registry.add('s', 'S', fakeClient(), { modern: peer });
    assert.equal(streams.length, 1);
    registry.remove('s');
    assert.equal(streams[0]!.aborted, true);
    assert.equal(streams.length, 1);
  });
});
