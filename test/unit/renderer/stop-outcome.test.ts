import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AssistantMessage, AssistantToolCall, Conversation } from '../../../app/contract/assistant.js';
import { stopOutcome } from '../../../renderer/assistant/stop-outcome.js';

const at = '2026-12-01T09:00:00.000Z';

function conversation(status: Conversation['status'], messages: AssistantMessage[]): Conversation {
  return {
    id: 'c1',
    title: 'Chat',
    providerId: 'fake',
    model: 'fake-small',
    serverIds: [],
    maxToolRounds: 10,
    imageInput: true,
    createdAt: at,
    updatedAt: at,
    status,
    messages
  };
}

const asked: AssistantMessage = { id: 'u1', at, role: 'user', text: 'A quick one' };
const call = (state: AssistantToolCall['state']): AssistantToolCall => ({
  id: 'call-1',
  functionName: 'files__list',
  rawArguments: '{}',
  state,
  outboundId: 'o1'
});
const answer = (extra: Partial<Extract<AssistantMessage, { role: 'assistant' }>> = {}): AssistantMessage => ({
  id: 'a1',
  at,
  role: 'assistant',
  text: 'Here it is.',
  toolCalls: [],
  ...extra
});

describe('a Stop the host answered, as the conversation goes on', () => {
  it('waits while the stopped answer is still to come, and is said stopped once it shows stopped', () => {
    // The host has stopped the model; the answer it marks stopped comes once the model's request closed.
    assert.equal(stopOutcome(conversation('idle', [asked]), 'u1'), 'waits');
    assert.equal(stopOutcome(conversation('generating', [asked]), 'u1'), 'waits');
    // A later round: the tool's result is in, the model was answering it.
    const round = [asked, answer({ text: '', toolCalls: [call('completed')] })];
    const result: AssistantMessage = { id: 't1', at, role: 'tool', toolCallId: 'call-1', text: 'ok' };
    assert.equal(stopOutcome(conversation('idle', [...round, result]), 'u1'), 'waits');
    assert.equal(stopOutcome(conversation('idle', [asked, answer({ text: '', stopped: true })]), 'u1'), 'stopped');
    assert.equal(
      stopOutcome(conversation('idle', [asked, answer({ text: '', toolCalls: [call('cancelled')] })]), 'u1'),
      'stopped'
    );
  });

  it('is over once the answer shows ended whole (the Stop came too late): a call of it cancelled later is no Stop', () => {
    // The Stop's reply: the answer ended before it, nothing was stopped.
    const ended = conversation('idle', [asked, answer()]);
    assert.equal(stopOutcome(ended, 'u1'), 'over', 'an answer that ended whole');
    const failed = conversation('failed', [
      asked,
      { id: 'e1', at, role: 'error', kind: 'provider', message: 'Overloaded', retryable: true }
    ]);
    assert.equal(stopOutcome(failed, 'u1'), 'over', 'an answer that failed');
    // The person's next message ends the wait too.
    const next: AssistantMessage = { id: 'u2', at, role: 'user', text: 'One more' };
    assert.equal(stopOutcome(conversation('generating', [asked, answer(), next]), 'u1'), 'over');
  });
});
