import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../app/contract/host-api.js';
import {
  ANSWERED_QUESTION_LIMIT,
  answerSentText,
  broughtBackText,
  namedItem,
  refusedText,
  replySentText,
  requestRejectedText
} from '../../../renderer/inbox/answer-sent-words.js';

const question = (message: unknown): Pick<InboxItem, 'kind' | 'request' | 'serverName'> => ({
  kind: 'elicitation',
  serverName: 'Books',
  request: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } }
});

const modelRequest = (
  kind: 'sampling-approval' | 'sampling-review' | 'sampling',
  texts: string[]
): Pick<InboxItem, 'kind' | 'request' | 'serverName'> => ({
  kind,
  serverName: 'Books',
  request: {
    messages: texts.map((text, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: { type: 'text', text }
    })),
    maxTokens: 10
  }
});

describe('the Inbox line once an answer went', () => {
  it('names the question as well as its server', () => {
    assert.equal(answerSentText(question('Which shelf?')), 'Answer sent to Books for “Which shelf?”.');
  });

  it('ends with one full stop where the question ends with one', () => {
    assert.equal(replySentText(question('Write one word.')), 'Reply sent to Books for “Write one word.”');
    assert.equal(refusedText(question('Pick one.'), 'decline'), 'Declined Books’s question “Pick one.”');
  });

  it('quotes a Markdown question as its words', () => {
    assert.equal(
      answerSentText(question('## Shelf\n\nWhich **shelf** for [Dune](https://x.y/dune)?')),
      'Answer sent to Books for “Shelf Which shelf for Dune?”.'
    );
  });

  it('tells two answers to the same server apart by their questions', () => {
    const shelf = answerSentText(question('Which shelf?'));
    const author = answerSentText(question('Which author?'));
    assert.notEqual(shelf, author);
    assert.equal(author, 'Answer sent to Books for “Which author?”.');
  });

  it('cuts a long question to a readable length, with an ellipsis, on one line', () => {
    const long = `Which of these shelves,\n\n  in the  north wing, ${'should hold the new books '.repeat(6)}?`;
    const said = answerSentText(question(long));
    const quoted = /^Answer sent to Books for “(.+)”\.$/.exec(said)?.[1];
    assert.ok(quoted, said);
    assert.equal(quoted.length, ANSWERED_QUESTION_LIMIT);
    assert.ok(quoted.endsWith('…'), quoted);
    assert.ok(quoted.startsWith('Which of these shelves, in the north wing, should hold'), quoted);
    assert.doesNotMatch(said, /\n/);
  });

  it('says the server alone when the question has no words', () => {
    assert.equal(answerSentText(question('   ')), 'Answer sent to Books.');
    assert.equal(answerSentText(question(undefined)), 'Answer sent to Books.');
    assert.equal(answerSentText(modelRequest('sampling-review', [])), 'Answer sent to Books.');
  });

  it('names a model request by its last text, as the Tasks row and the withdrawn notice do', () => {
    const request = modelRequest('sampling-review', ['Summarise chapter one', 'It is long.', 'Shorter, please']);
    assert.equal(answerSentText(request), 'Answer sent to Books for “Shorter, please”.');
    assert.equal(
      replySentText(modelRequest('sampling', ['Summarise chapter one'])),
      'Reply sent to Books for “Summarise chapter one”.'
    );
  });

  it('says a task’s answer is kept for its server to fetch, not sent: the server fetches it (tasks/result)', () => {
    const asked = { ...question('Which shelf?'), taskId: 't1' };
    assert.equal(answerSentText(asked), 'Answer kept for Books to fetch: “Which shelf?”.');
    assert.equal(answerSentText({ ...question(undefined), taskId: 't1' }), 'Answer kept for Books to fetch.');
    const review = { ...modelRequest('sampling-review', ['Once upon a time']), taskId: 't2' };
    assert.equal(answerSentText(review), 'Answer kept for Books to fetch: “Once upon a time”.');
    const reply = { ...modelRequest('sampling', ['Write one word.']), taskId: 't3' };
    assert.equal(replySentText(reply), 'Reply kept for Books to fetch: “Write one word.”');
    // A question asked during a task (not itself one) is answered in its response: sent.
    const during: Parameters<typeof answerSentText>[0] & { relatedTaskId: string } = {
      ...question('Which shelf?'),
      relatedTaskId: 't4'
    };
    assert.equal(answerSentText(during), 'Answer sent to Books for “Which shelf?”.');
  });

  it('names the request a rejection is of, the same way', () => {
    assert.notEqual(
      requestRejectedText(modelRequest('sampling-approval', ['Summarise chapter one'])),
      requestRejectedText(modelRequest('sampling-approval', ['Summarise chapter two']))
    );
  });
});

describe('the Inbox line once a model request, or its model’s answer, was rejected', () => {
  it('says it as a question’s Decline is said: what was done, then whose and which', () => {
    // It read "Request from Books rejected: “…”.", beside "Declined Books’s question “…”.".
    assert.equal(
      requestRejectedText(modelRequest('sampling-approval', ['Summarise chapter one'])),
      'Rejected Books’s model request “Summarise chapter one”.'
    );
    assert.equal(
      requestRejectedText(modelRequest('sampling', ['Write one word.'])),
      'Rejected Books’s model request “Write one word.”'
    );
    assert.equal(requestRejectedText(modelRequest('sampling-approval', [])), 'Rejected: Books’s model request.');
  });

  it('names the model’s answer in review as what was rejected, as the audit log does, and so what an Undo brings back', () => {
    const review = modelRequest('sampling-review', ['Summarise chapter one']);
    assert.equal(
      requestRejectedText(review),
      'Rejected the model’s answer to Books’s model request “Summarise chapter one”.'
    );
    assert.equal(
      broughtBackText(namedItem(review)),
      'Brought back the model’s answer to Books’s model request “Summarise chapter one”.'
    );
    assert.equal(
      requestRejectedText(modelRequest('sampling-review', [])),
      'Rejected: the model’s answer to Books’s model request.'
    );
  });
});

describe('the Inbox line once a question was declined or dismissed', () => {
  it('names the question as well as its server, as the line of an answer does', () => {
    assert.equal(refusedText(question('Which shelf?'), 'decline'), 'Declined Books’s question “Which shelf?”.');
    assert.equal(refusedText(question('Which shelf?'), 'cancel'), 'Dismissed Books’s question “Which shelf?”.');
  });

  it('tells two questions of the same server apart', () => {
    for (const action of ['decline', 'cancel'] as const) {
      const shelf = refusedText(question('Which shelf?'), action);
      const author = refusedText(question('Which author?'), action);
      assert.notEqual(shelf, author);
      assert.match(author, /^(Declined|Dismissed) Books’s question “Which author\?”\.$/);
    }
  });

  it('cuts a long question as the line of an answer does, on one line', () => {
    const long = `Which of these shelves,\n\n  in the  north wing, ${'should hold the new books '.repeat(6)}?`;
    const said = refusedText(question(long), 'decline');
    const quoted = /^Declined Books’s question “(.+)”\.$/.exec(said)?.[1];
    assert.ok(quoted, said);
    assert.equal(quoted.length, ANSWERED_QUESTION_LIMIT);
    assert.equal(`“${quoted}”`, /“.+”/.exec(answerSentText(question(long)))?.[0]);
  });

  it('names a model request by its last text', () => {
    assert.equal(
      refusedText(
        modelRequest('sampling-approval', ['Summarise chapter one', 'It is long.', 'Shorter, please']),
        'cancel'
      ),
      'Dismissed Books’s model request “Shorter, please”.'
    );
  });

  it('keeps the server’s line when the question has no words', () => {
    assert.equal(refusedText(question('   '), 'decline'), 'Declined: Books’s question.');
    assert.equal(refusedText(question(undefined), 'cancel'), 'Dismissed: Books’s question.');
    assert.equal(refusedText(modelRequest('sampling-approval', []), 'decline'), 'Declined: Books’s model request.');
  });
});
