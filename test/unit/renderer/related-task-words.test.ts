import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callOfWords, serverTaskWords, waitParts } from '../../../renderer/components/related-task-words.js';

describe('what an Inbox card says of the task its request was asked for or sent as', () => {
  const item = { serverName: 'Everything' };

  it('names a call of Taskdesk’s by its tool and who made it, and any other task by its server', () => {
    assert.equal(callOfWords({ toolName: 'longRunningOperation' }), 'your call of longRunningOperation');
    assert.equal(
      callOfWords({ toolName: 'lookup', origin: { kind: 'assistant', conversationId: 'c1' } }),
      'the Assistant’s call of lookup'
    );
    assert.equal(serverTaskWords('Everything'), 'one of Everything’s tasks');
  });

  it('says what waits on the answer in words, each task’s id kept for its tooltip', () => {
    const call = callOfWords({ toolName: 'longRunningOperation' });
    // Asked for a tool task of Taskdesk's the Desk knows: that call waits on it.
    assert.deepEqual(waitParts({ ...item, relatedTaskId: '6d23c87b-1', origin: 'tool longRunningOperation' }, call), [
      { words: 'your call of longRunningOperation waits on it', taskId: '6d23c87b-1' }
    ]);
    // One it does not know (the server's own, or forgotten): its server's task, and what asks when the host said it.
    assert.deepEqual(waitParts({ ...item, relatedTaskId: 't-9' }, undefined), [
      { words: 'one of Everything’s tasks waits on it', taskId: 't-9' }
    ]);
    assert.deepEqual(waitParts({ ...item, relatedTaskId: 't-9', origin: 'tool lookup' }, undefined), [
      { words: 'one of Everything’s tasks waits on it', taskId: 't-9' },
      { words: 'for tool lookup' }
    ]);
    // Sent as a task of its own (which Taskdesk keeps), for a call of Taskdesk's or not.
    assert.deepEqual(waitParts({ ...item, taskId: 'q-1' }, undefined), [{ words: 'sent as a task', taskId: 'q-1' }]);
    assert.deepEqual(waitParts({ ...item, taskId: 'q-1', relatedTaskId: '6d23c87b-1' }, call), [
      { words: 'sent as a task', taskId: 'q-1' },
      { words: 'for your call of longRunningOperation', taskId: '6d23c87b-1' }
    ]);
    // A multi round-trip request of Taskdesk's (no task), and a plain request: as before.
    assert.deepEqual(
      waitParts({ ...item, relatedTaskId: 'x-1', relatedCall: true, origin: 'tool ask-name' }, undefined),
      [{ words: 'your request waits on it' }, { words: 'for tool ask-name' }]
    );
    assert.deepEqual(waitParts(item, undefined), [{ words: 'the server waits for your answer' }]);
    // No part says a task's id.
    for (const parts of [
      waitParts({ ...item, relatedTaskId: '6d23c87b-1' }, call),
      waitParts({ ...item, taskId: 'q-1', relatedTaskId: 't-9' }, undefined)
    ])
      for (const part of parts) assert.doesNotMatch(part.words, /6d23c87b|q-1|t-9/);
  });
});
