import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detailPairs } from '../../../renderer/audit/detail-pairs.js';

describe('what a question or model request came from, in the Audit log', () => {
  it('names the tool, prompt or resource it was asked during, in words, on a sampling entry as on an answer', () => {
    const of = (type: string, detail: Record<string, unknown>) =>
      detailPairs(detail, type).map(({ name, value }) => [name, value] as const);
    assert.deepEqual(
      of('sampling.llm', { decision: 'completed', model: 'fake-small', origin: 'tool draft', relatedCall: true }),
      [
        ['model', 'fake-small'],
        ['asked during', 'tool draft'],
        ['asked during a request, not a task', 'yes']
      ]
    );
    assert.deepEqual(
      of('inbox.answered', {
        kind: 'elicitation',
        action: 'accept',
        relatedTaskId: 'out-1',
        origin: 'prompt greeting'
      }),
      [
        ['asked for task', 'out-1'],
        ['asked during', 'prompt greeting']
      ]
    );
  });
});
