import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../app/contract/host-api.js';
import { answerDelivery } from '../../../renderer/inbox/answer-delivery.js';
import { failedRunText } from '../../../renderer/inbox/failed-run-words.js';

const failure = {
  message: 'Could not connect to Local LLM (127.0.0.1:59999). Is the server running and the base URL right?',
  providerId: 'local',
  providerName: 'Local LLM',
  model: 'tiny-model',
  at: '2026-12-03T10:05:00.000Z'
};

const item = (over: Partial<InboxItem> = {}): InboxItem => ({
  id: 'i1',
  kind: 'sampling-approval',
  serverId: 'everything',
  serverName: 'Everything',
  createdAt: '2026-12-03T10:00:00.000Z',
  request: { messages: [], maxTokens: 100 },
  ...over
});

const ready = (readySince: string) => ({
  id: 'everything',
  name: 'Everything',
  transport: { type: 'stdio' as const, target: 'everything' },
  state: { status: 'ready' as const, readySince }
});

const now = new Date('2026-12-03T10:06:00.000Z');

describe('what the card of a failed model run says', () => {
  it('says the server waits meanwhile when it asked over the connection it is on', () => {
    const asked = item({ taskId: 't1' });
    assert.match(
      failedRunText(asked, failure, answerDelivery(asked, ready('2026-12-03T09:00:00.000Z')), now),
      /^The run you approved on tiny-model \(Local LLM\) failed at .+: Could not connect to Local LLM \(127\.0\.0\.1:59999\)\. Is the server running and the base URL right\? Try it again, on another model or with the request changed, write the reply yourself, or reject it; Everything waits meanwhile\.$/
    );
    // A plain request waits on its connection.
    assert.match(
      failedRunText(item(), failure, answerDelivery(item(), undefined), now),
      /; Everything waits meanwhile\.$/
    );
  });

  it('does not say the server waits when the request is of an earlier connection (no one waits on it now)', () => {
    const asked = item({ taskId: 't1', expiresAt: '2026-12-03T11:00:00.000Z' });
    const delivery = answerDelivery(asked, ready('2026-12-03T10:30:00.000Z'));
    assert.equal(delivery.kind === 'kept' && delivery.why, 'earlier-connection');
    const text = failedRunText(asked, failure, delivery, now);
    assert.doesNotMatch(text, /waits/);
    assert.match(
      text,
      /Try it again, on another model or with the request changed, write the reply yourself, or reject it\.$/
    );
  });

  it('does not say the server waits when a stdio server it asked over is not connected (its process has stopped)', () => {
    const asked = item({ taskId: 't1' });
    const disconnected = { ...ready('2026-12-03T09:00:00.000Z'), state: { status: 'closed' as const } };
    const text = failedRunText(asked, failure, answerDelivery(asked, disconnected), now);
    assert.doesNotMatch(text, /waits/);
    assert.match(text, /or reject it\.$/);
  });

  it('says the person stopped the run, and that what the model wrote was not sent, rather than a failure', () => {
    const asked = item({ taskId: 't1' });
    const stopped = { ...failure, message: 'Stopped by you.', stopped: true as const };
    assert.match(
      failedRunText(asked, stopped, answerDelivery(asked, ready('2026-12-03T09:00:00.000Z')), now),
      /^You stopped tiny-model \(Local LLM\) at .+, before it finished; what it had written was not sent\. Try it again, on another model or with the request changed, write the reply yourself, or reject it; Everything waits meanwhile\.$/
    );
  });
});
