import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { textEdits, textSlots } from '../../../renderer/inbox/request-edits.js';
import {
  approvalDraftValues,
  restoredAnswer,
  restoredApproval,
  reviewDraftValues
} from '../../../renderer/inbox/restored-draft.js';

const request = {
  systemPrompt: 'Be brief.',
  messages: [
    { role: 'user', content: { type: 'text', text: 'Say hello.' } },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: 'there' }
      ]
    }
  ],
  maxTokens: 20
};
const slots = textSlots(request);
const originals = Object.fromEntries(slots.map((slot) => [slot.key, slot.original]));
const fit = { slots: slots.map((slot) => slot.key), providers: ['fake', 'other'] };

describe('a sampling request’s text edits, as a draft keeps them', () => {
  it('holds nothing when nothing was changed', () => {
    assert.equal(textEdits(request, slots, 'Be brief.', originals), undefined);
  });

  it('holds only the system prompt and the texts that were changed', () => {
    assert.deepEqual(textEdits(request, slots, 'Be kind.', { ...originals, '1:2': 'you' }), {
      system: 'Be kind.',
      texts: { '1:2': 'you' }
    });
    assert.deepEqual(textEdits(request, slots, 'Be brief.', { ...originals, '0:0': '' }), { texts: { '0:0': '' } });
  });

  it('holds an emptied system prompt, and one written into a request that had none', () => {
    assert.deepEqual(textEdits(request, slots, '', originals), { system: '' });
    const bare = { messages: request.messages };
    assert.deepEqual(textEdits(bare, textSlots(bare), 'New', originals), { system: 'New' });
  });
});

describe('an approval card’s draft', () => {
  it('is nothing when neither the request was changed nor a reply begun', () => {
    assert.equal(approvalDraftValues({ edits: null, reply: null }), null);
  });

  it('keeps a reply alone as the reply card does, so such a draft reads the same', () => {
    assert.deepEqual(approvalDraftValues({ edits: null, reply: { reply: 'Hi', model: 'human' } }), {
      reply: 'Hi',
      model: 'human'
    });
    assert.deepEqual(restoredApproval({ reply: 'Hi', model: 'human' }, fit), {
      edits: null,
      reply: { reply: 'Hi', model: 'human' }
    });
  });

  it('comes back as it was kept, through JSON', () => {
    const draft = {
      edits: { system: 'Be kind.', texts: { '0:0': 'Say goodbye.', '1:2': 'you' }, model: 'big', providerId: 'other' },
      reply: { reply: 'Hi', model: 'me' }
    };
    const kept = JSON.parse(JSON.stringify(approvalDraftValues(draft))) as Record<string, unknown>;
    assert.deepEqual(restoredApproval(kept, fit), draft);
    assert.deepEqual(restoredApproval({ edits: { model: 'big' } }, fit), { edits: { model: 'big' }, reply: null });
  });

  it('is dropped whole when any of it no longer fits the request or the providers', () => {
    for (const kept of [
      // A text slot the request lacks.
      { edits: { texts: { '0:0': 'Fine', '3:0': 'Gone' } } },
      // The image block is no text slot.
      { edits: { texts: { '1:1': 'Not text' } } },
      // A provider that was removed.
      { edits: { model: 'big', providerId: 'removed' } },
      // Values of another kind.
      { edits: { system: 3 } },
      { edits: { texts: ['Say goodbye.'] } },
      { edits: { texts: { '0:0': 7 } } },
      { edits: 'Say goodbye.' },
      { edits: {} },
      { edits: { max: 10 } },
      // Half a reply, or another card's draft.
      { reply: 'Hi' },
      { reply: 'Hi', model: 'human', name: 'Ada' },
      { name: 'Ada' },
      { answer: 'Edited' },
      {}
    ])
      assert.equal(restoredApproval(kept, fit), undefined, JSON.stringify(kept));
    assert.equal(restoredApproval(undefined, fit), undefined);
  });
});

describe('a review card’s draft', () => {
  it('is the answer as edited, or nothing when it is as the model wrote it', () => {
    assert.deepEqual(reviewDraftValues('Edited.', 'Original.'), { answer: 'Edited.' });
    assert.deepEqual(reviewDraftValues('', 'Original.'), { answer: '' });
    assert.equal(reviewDraftValues('Original.', 'Original.'), null);
  });

  it('comes back only when it is one and the answer can be edited', () => {
    assert.equal(restoredAnswer({ answer: 'Edited.' }, true), 'Edited.');
    assert.equal(restoredAnswer({ answer: '' }, true), '');
    assert.equal(restoredAnswer({ answer: 'Edited.' }, false), undefined);
    assert.equal(restoredAnswer({ answer: 5 }, true), undefined);
    assert.equal(restoredAnswer({ answer: 'Edited.', model: 'x' }, true), undefined);
    assert.equal(restoredAnswer({ edits: { model: 'big' } }, true), undefined);
    assert.equal(restoredAnswer({ reply: 'Hi', model: 'human' }, true), undefined);
    assert.equal(restoredAnswer(undefined, true), undefined);
  });
});
