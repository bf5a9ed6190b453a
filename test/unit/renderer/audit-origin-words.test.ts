import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detailPairs } from '../../../renderer/audit/detail-pairs.js';

describe('what a question or model request came from, in the Audit log', () => {
  const of = (type: string, detail: Record<string, unknown>) =>
    detailPairs(detail, type).map(({ name, value }) => [name, value] as const);

  it('names the tool, prompt or resource it was asked for, in words, on a sampling entry as on an answer', () => {
    assert.deepEqual(
      of('sampling.llm', { decision: 'completed', model: 'fake-small', origin: 'tool draft', relatedCall: true }),
      [
        ['model', 'fake-small'],
        ['asked for', 'tool draft']
      ]
    );
    assert.deepEqual(
      of('inbox.answered', {
        kind: 'elicitation',
        action: 'accept',
        relatedTaskId: 'out-1',
        origin: 'prompt greeting'
      }),
      [['asked for', 'prompt greeting']]
    );
  });

  it('leaves the related id of a task or of a request of Taskdesk’s to the Task column, which says it in words', () => {
    assert.deepEqual(
      of('sampling.request', { decision: 'approved', relatedTaskId: 'ex-7', origin: 'tool draft', relatedCall: true }),
      [['asked for', 'tool draft']]
    );
    assert.deepEqual(of('inbox.answered', { kind: 'elicitation', action: 'accept', relatedTaskId: 'out-1' }), []);
  });
});
