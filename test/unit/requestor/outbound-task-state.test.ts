import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isOutboundFinished, isServerTerminal, nextOutboundState } from '../../../app/requestor/outbound-task-state.js';
import type { OutboundTaskState } from '../../../app/contract/outbound-tasks.js';

const all: OutboundTaskState[] = ['working', 'input_required', 'completed', 'failed', 'cancelled', 'expired', 'lost'];

test('working and input_required move to each other and to any terminal status', () => {
  assert.equal(nextOutboundState('working', { type: 'status', status: 'input_required' }), 'input_required');
  assert.equal(nextOutboundState('input_required', { type: 'status', status: 'working' }), 'working');
  for (const terminal of ['completed', 'failed', 'cancelled'] as const) {
    assert.equal(nextOutboundState('working', { type: 'status', status: terminal }), terminal);
    assert.equal(nextOutboundState('input_required', { type: 'status', status: terminal }), terminal);
  }
  assert.equal(
    nextOutboundState('working', { type: 'status', status: 'working' }),
    undefined,
    'no change is no transition'
  );
});

test('terminal is final for status reports; expired and lost are final for everything', () => {
  for (const terminal of ['completed', 'failed', 'cancelled'] as const) {
    for (const status of ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const) {
      assert.equal(nextOutboundState(terminal, { type: 'status', status }), undefined);
    }
    assert.equal(
      nextOutboundState(terminal, { type: 'expired' }),
      'expired',
      'a terminal task whose result was never fetched can expire'
    );
  }
  for (const final of ['expired', 'lost'] as const) {
    assert.equal(nextOutboundState(final, { type: 'status', status: 'completed' }), undefined);
    assert.equal(nextOutboundState(final, { type: 'lost' }), undefined);
    assert.equal(nextOutboundState(final, { type: 'expired' }), undefined);
  }
});

test('finished means expired, lost, or terminal with the outcome kept', () => {
  const finished = all.filter((s) => isOutboundFinished(s, true));
  assert.deepEqual(finished, ['completed', 'failed', 'cancelled', 'expired', 'lost']);
  assert.deepEqual(
    all.filter((s) => isOutboundFinished(s, false)),
    ['expired', 'lost']
  );
  assert.deepEqual(all.filter(isServerTerminal), ['completed', 'failed', 'cancelled']);
});
