import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastRanRequest, ranRequestSentence } from '../../app/contract/request-changes.js';
import { ranRequestOf } from '../../app/history/history-values.js';

const sent = { messages: [{ role: 'user', content: { type: 'text', text: 'Oslo?' } }], maxTokens: 20 };

describe('what ran when the person changed a model request', () => {
  it('is the last request the runner noted on the task, whole; none when it ran as the server sent it', () => {
    const first = { ...sent, systemPrompt: 'Be brief.' };
    const last = { ...sent, systemPrompt: 'Answer as a pirate.' };
    assert.equal(lastRanRequest(undefined), undefined);
    assert.equal(lastRanRequest([{ phase: 'model' }]), undefined);
    assert.equal(lastRanRequest([{ ranRequest: 'not a request' }, { ranRequest: [1] }]), undefined);
    assert.deepEqual(
      lastRanRequest([{ ranRequest: first, changed: ['systemPrompt'] }, { ranRequest: last }, { phase: 'model' }]),
      last
    );
    // History keeps the same request, bounded as every request it keeps.
    assert.deepEqual(ranRequestOf([{ ranRequest: last }, { phase: 'model' }]), last);
    const huge = { ...sent, systemPrompt: 'x'.repeat(64 * 1024) };
    assert.equal((ranRequestOf([{ ranRequest: huge }]) as { truncated?: boolean }).truncated, true);
    assert.equal(lastRanRequest([{ ranRequest: huge }]), huge);
  });

  it('says which parts the person changed, and only that it changed when either side was too large to keep', () => {
    const ran = {
      ...sent,
      systemPrompt: 'Answer as a pirate.',
      messages: [{ role: 'user', content: { type: 'text', text: 'Bergen?' } }]
    };
    assert.equal(
      ranRequestSentence(sent, ran),
      'You changed the messages and the system prompt before approving it; this is what the model was sent.'
    );
    assert.equal(
      ranRequestSentence(sent, { ...sent, maxTokens: 5, temperature: 0.2, extra: true }),
      'You changed the token limit, the temperature and other fields before approving it; this is what the model was sent.'
    );
    assert.equal(
      ranRequestSentence({ truncated: true, bytes: 40_000, preview: '{' }, ran),
      'You changed this request before approving it; this is what the model was sent.'
    );
  });
});
