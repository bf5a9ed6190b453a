import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cancelButtonWords,
  cancelReceivedAsk,
  receivedCancelledWords,
  toolCancelledWords
} from '../../../renderer/tasks/cancel-words.js';

const question = {
  kind: 'elicitation' as const,
  serverName: 'Books',
  request: { mode: 'form', message: 'Which shelf for **Ivanhoe**?', requestedSchema: { type: 'object' } }
};
const modelRequest = {
  kind: 'sampling' as const,
  serverName: 'Weather Station',
  request: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the forecast.' } }] }
};

describe('the words of a task’s Cancel on the Tasks screen', () => {
  it('names a received task’s Cancel for what it ends, its dots saying it asks first; a tool call’s is plain', () => {
    assert.equal(cancelButtonWords('elicitation'), 'Cancel question…');
    assert.equal(cancelButtonWords('sampling'), 'Cancel model request…');
    assert.equal(cancelButtonWords('tool-call'), 'Cancel');
  });

  it('asks what the server is told and that it cannot be undone, and points to the Inbox while it waits there', () => {
    assert.deepEqual(cancelReceivedAsk(question, true), {
      title: 'Cancel Books’s question?',
      body: [
        'Books asked “Which shelf for Ivanhoe?” as a task. Cancelling ends the task: Books is told it was cancelled, and gets no answer. This cannot be undone.',
        'To answer it, or to decline it with a few seconds to undo, open it in the Inbox instead.'
      ],
      confirmLabel: 'Cancel question',
      cancelLabel: 'Keep the question'
    });
    assert.deepEqual(cancelReceivedAsk(modelRequest, false), {
      title: 'Cancel Weather Station’s model request?',
      body: [
        'Weather Station asked for a model reply to “Summarise the forecast.” as a task. Cancelling ends the task: Weather Station is told it was cancelled, and gets no reply from the model. This cannot be undone.'
      ],
      confirmLabel: 'Cancel model request',
      cancelLabel: 'Keep the model request'
    });
    assert.equal(
      cancelReceivedAsk(modelRequest, true).body[1],
      'To answer it, or to reject it with a few seconds to undo, open it in the Inbox instead.'
    );
    // Nothing to quote: said by what it is.
    assert.match(
      cancelReceivedAsk({ ...question, request: {} }, false).body[0]!,
      /^Books asked a question as a task\./
    );
  });

  it('says once done what was cancelled, as the Inbox names what it declined', () => {
    assert.equal(receivedCancelledWords(question), 'Cancelled Books’s question “Which shelf for Ivanhoe?”.');
    assert.equal(
      receivedCancelledWords(modelRequest),
      'Cancelled Weather Station’s model request “Summarise the forecast.”'
    );
    assert.equal(toolCancelledWords('slow', 'Server a', 'cancelled'), 'The slow task on Server a was cancelled.');
    assert.equal(toolCancelledWords('slow', 'Server a', 'completed'), 'The slow task on Server a ended: completed.');
    assert.equal(toolCancelledWords('slow', 'Server a', 'working'), 'Server a was asked to cancel the slow task.');
  });
});
