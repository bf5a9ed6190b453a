import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ended, withdrawnSentence } from '../../../renderer/components/request-title.js';

const review = {
  kind: 'sampling-review',
  serverName: 'Everything',
  message: 'Resource trigger-sampling-request context: Tell me about a cat'
};

describe('the notice of a model answer under review whose server stopped waiting', () => {
  it('says it in one sentence: the server no longer waits, and the answer was not sent', () => {
    assert.equal(
      ended(withdrawnSentence(review)),
      'Everything stopped waiting for a model reply to “Resource trigger-sampling-request context: Tell me about a cat” before you sent the answer you were reviewing.'
    );
    assert.equal(
      ended(withdrawnSentence({ ...review, message: undefined })),
      'Everything stopped waiting for a model reply before you sent the answer you were reviewing.'
    );
  });

  it('says a Reject held for its undo window was not sent, in the same one sentence', () => {
    assert.equal(
      ended(withdrawnSentence({ ...review, heldAnswer: 'Reject' })),
      'Everything stopped waiting for a model reply to “Resource trigger-sampling-request context: Tell me about a cat” while your Reject waited to be sent: it was not sent.'
    );
  });

  it('says it ended after the person stopped a call without a clause about the answer stacked on', () => {
    assert.equal(
      ended(withdrawnSentence({ ...review, message: 'Tell me about a cat', afterStoppedCall: 'story' })),
      'Everything’s request for a model reply to “Tell me about a cat” ended after you stopped the call of story, which was running when it was asked.'
    );
  });

  it('says the request timed out when its server’s cancellation said so, a question’s as a model request’s', () => {
    assert.equal(
      ended(withdrawnSentence({ ...review, message: 'Tell me about a cat', timedOut: true })),
      'Everything’s request for a model reply to “Tell me about a cat” timed out before you sent the answer you were reviewing.'
    );
    assert.equal(
      ended(withdrawnSentence({ ...review, kind: 'elicitation', message: 'Which shelf?', timedOut: true })),
      'Everything’s question “Which shelf?” timed out.'
    );
    assert.equal(
      ended(withdrawnSentence({ ...review, message: 'Tell me about a cat', timedOut: true, heldAnswer: 'Reject' })),
      'Everything’s request for a model reply to “Tell me about a cat” timed out while your Reject waited to be sent: it was not sent.'
    );
  });
});
