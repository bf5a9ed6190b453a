import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answeredByYou, answeredNote } from '../../app/receiver/answered-note.js';
import { withdrawnNote } from '../../app/receiver/withdrawn-note.js';

describe('whether the person answered a received model request (its runner’s notes)', () => {
  const sampling = (notes: Array<Record<string, unknown>>, status = 'completed') => ({
    kind: 'sampling',
    task: { status },
    notes
  });

  it('is so for a reply they wrote and for a request, or an answer, they approved', () => {
    assert.equal(answeredByYou(sampling([answeredNote('reply')])), true);
    assert.equal(answeredByYou(sampling([{ phase: 'awaiting-approval' }, answeredNote('approve')])), true);
    assert.equal(
      answeredByYou(sampling([{ phase: 'model' }, { phase: 'awaiting-review' }, answeredNote('approve')])),
      true
    );
  });

  it('is not for a run without asking, one Taskdesk withdrew, one rejected, nor a question', () => {
    assert.equal(answeredByYou(sampling([{ phase: 'model', providerId: 'p', model: 'm' }])), false);
    assert.equal(answeredByYou(sampling([withdrawnNote('reject', 'Its task ended')])), false);
    assert.equal(answeredByYou(sampling([answeredNote('approve'), answeredNote('reject')], 'failed')), false);
    assert.equal(answeredByYou(sampling([answeredNote('reject')])), false);
    assert.equal(
      answeredByYou({ kind: 'elicitation', task: { status: 'completed' }, notes: [answeredNote('accept')] }),
      false
    );
    assert.equal(answeredByYou(sampling([answeredNote('approve')], 'working')), false, 'not before it ends');
  });
});
