import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem, ServerView } from '../../../app/contract/host-api.js';
import {
  answerDelivery,
  answeredText,
  answerSaid,
  apartLast,
  earlierProcessIds,
  keptNote
} from '../../../renderer/inbox/answer-delivery.js';
import { answerSentText, requestRejectedText } from '../../../renderer/inbox/answer-sent-words.js';
import { fetchedRowWords, notFetchedWords } from '../../../renderer/tasks/fetched-words.js';

const item = (over: Partial<InboxItem> = {}): InboxItem => ({
  id: 'i1',
  kind: 'elicitation',
  serverId: 'books',
  serverName: 'Books',
  createdAt: '2026-12-03T10:00:00.000Z',
  request: { message: 'Which shelf?' },
  ...over
});

const server = (state: ServerView['state']): ServerView => ({
  id: 'books',
  name: 'Books',
  transport: { type: 'stdio', target: 'books' },
  state
});

const ready = (readySince: string) => server({ status: 'ready', readySince });
/** The same server over HTTP: it may come back to the session, and the tasks, it had. */
const readyHttp = (readySince: string): ServerView => ({
  ...ready(readySince),
  transport: { type: 'http', target: 'http://127.0.0.1/mcp' }
});
const task = { taskId: 't1', expiresAt: '2026-12-03T11:00:00.000Z' };

describe('where an inbox answer goes', () => {
  it('sends a plain question’s answer on the connection that asked', () => {
    assert.deepEqual(answerDelivery(item(), ready('2026-12-03T10:05:00.000Z')), { kind: 'now' });
    assert.deepEqual(answerDelivery(item(), undefined), { kind: 'now' });
  });

  it('sends a task’s answer when the server is connected over the connection that asked', () => {
    assert.deepEqual(answerDelivery(item(task), ready('2026-12-03T09:00:00.000Z')), { kind: 'now' });
    // Asked in the same millisecond the connection became ready: of that connection.
    assert.deepEqual(answerDelivery(item(task), ready('2026-12-03T10:00:00.000Z')), { kind: 'now' });
  });

  it('keeps a task’s answer asked over an earlier connection of an HTTP server, and says so before and after', () => {
    const asked = item(task);
    const delivery = answerDelivery(asked, readyHttp('2026-12-03T10:30:00.000Z'));
    assert.deepEqual(delivery, { kind: 'kept', why: 'earlier-connection', until: task.expiresAt });
    assert.equal(
      keptNote(asked, delivery),
      'Books asked this before its current connection (it or Taskdesk restarted since). Your answer is kept with the task until it expires; Books gets it only if it asks for this task again.'
    );
    assert.match(
      answeredText(asked, delivery, answerSentText(asked)),
      /^Answer kept for Books until .+: it gets it when it asks for this task\.$/
    );
  });

  it('says plainly that a stdio server started again since it asked will not fetch the answer', () => {
    const asked = item(task);
    const delivery = answerDelivery(asked, ready('2026-12-03T10:30:00.000Z'));
    assert.deepEqual(delivery, { kind: 'kept', why: 'earlier-connection', until: task.expiresAt, startedAnew: true });
    assert.equal(
      keptNote(asked, delivery),
      'Books asked this before Taskdesk started it again: it runs now as a new process, and this task was the old one’s, so Books will not fetch your answer.'
    );
    assert.match(
      answeredText(asked, delivery, answerSentText(asked)),
      /^Answer kept with the task until .+; Books was started again since it asked, and will not fetch it\.$/
    );
    assert.equal(
      answerSaid(asked, 'cancel', delivery, answerSentText(asked)),
      'Dismissed Books’s question “Which shelf?”. Books was started again since it asked, and will not fetch it.'
    );
    // Of the connection of now, it goes at once.
    assert.deepEqual(answerDelivery(item(task), ready('2026-12-03T09:30:00.000Z')), { kind: 'now' });
  });

  it('sets a question a stdio server started again will not fetch after the current ones, oldest first', () => {
    const books = ready('2026-12-03T10:30:00.000Z');
    const web: ServerView = { ...readyHttp('2026-12-03T10:30:00.000Z'), id: 'web', name: 'Web' };
    const items = [
      item({ ...task, id: 'stale-1', createdAt: '2026-12-03T10:00:00.000Z' }),
      item({ ...task, id: 'web-old', serverId: 'web', serverName: 'Web', createdAt: '2026-12-03T10:01:00.000Z' }),
      item({ ...task, id: 'stale-2', createdAt: '2026-12-03T10:02:00.000Z' }),
      item({ ...task, id: 'fresh', createdAt: '2026-12-03T10:40:00.000Z' }),
      item({ id: 'plain', createdAt: '2026-12-03T10:41:00.000Z' })
    ];
    const apart = earlierProcessIds(items, [books, web]);
    assert.deepEqual(apart, ['stale-1', 'stale-2']);
    assert.deepEqual(
      apartLast(items, new Set(apart)).map((each) => each.id),
      ['web-old', 'fresh', 'plain', 'stale-1', 'stale-2']
    );
    assert.deepEqual(
      apartLast(items, new Set()).map((each) => each.id),
      items.map((each) => each.id)
    );
  });

  it('says on the Tasks detail that a stdio server started again will not fetch a result, and an HTTP one may', () => {
    const inbound = {
      task: { taskId: 't1', status: 'completed', createdAt: '2026-12-03T10:00:00.000Z' },
      serverId: 'books',
      serverName: 'Books',
      awaitingFetch: true
    } as unknown as Parameters<typeof notFetchedWords>[0];
    assert.equal(
      notFetchedWords(inbound, ready('2026-12-03T10:30:00.000Z')),
      'No, and it will not be: Books was started again since it asked, as a new process, and this task was the old one’s'
    );
    assert.equal(
      notFetchedWords(inbound, readyHttp('2026-12-03T10:30:00.000Z')),
      'Not yet: Books gets it when it asks for this task'
    );
    assert.equal(
      notFetchedWords(inbound, ready('2026-12-03T09:30:00.000Z')),
      'Not yet: Books gets it when it asks for this task'
    );
    // Not connected: a stdio server's process that asked has stopped; an HTTP one may come back.
    assert.equal(
      notFetchedWords(inbound, server({ status: 'closed' })),
      'No, and it will not be: Books is not connected, and the process that asked has stopped'
    );
    assert.equal(
      notFetchedWords(inbound, { ...readyHttp('2026-12-03T09:30:00.000Z'), state: { status: 'closed' } }),
      'Not yet: Books gets it when it asks for this task'
    );
  });

  it('says on the Tasks row, as the detail does, that a result will not be fetched by a stdio server not connected or started again', () => {
    const inbound = {
      task: { taskId: 't1', status: 'completed', createdAt: '2026-12-03T10:00:00.000Z' },
      serverId: 'books',
      serverName: 'Books',
      outcome: { type: 'result' },
      awaitingFetch: true
    } as unknown as Parameters<typeof fetchedRowWords>[0];
    assert.equal(fetchedRowWords(inbound, ready('2026-12-03T09:30:00.000Z')), 'Not fetched by Books yet');
    assert.equal(fetchedRowWords(inbound, server({ status: 'closed' })), 'Not fetched by Books, and it will not be');
    assert.equal(
      fetchedRowWords(inbound, ready('2026-12-03T10:30:00.000Z')),
      'Not fetched by Books, and it will not be'
    );
    assert.equal(
      fetchedRowWords(inbound, { ...readyHttp('2026-12-03T09:30:00.000Z'), state: { status: 'closed' } }),
      'Not fetched by Books yet'
    );
  });

  it('keeps a task’s answer while an HTTP server is not connected, or is gone, for when it asks for it', () => {
    for (const state of [{ status: 'closed' }, { status: 'connecting' }, { status: 'failed', reason: 'x' }] as const) {
      const delivery = answerDelivery(item(task), { ...server(state), transport: readyHttp('').transport });
      assert.deepEqual(delivery, { kind: 'kept', why: 'not-connected', until: task.expiresAt });
      assert.equal(
        keptNote(item(task), delivery),
        'Books is not connected. Your answer is kept with the task until it expires, for when it connects and asks for it.'
      );
    }
    assert.deepEqual(answerDelivery(item(task), undefined), {
      kind: 'kept',
      why: 'not-connected',
      until: task.expiresAt
    });
  });

  it('says plainly that a stdio server not connected will not fetch the answer: the process that asked has stopped', () => {
    const asked = item(task);
    // Disconnected by the person, its process gone on its own, or starting anew (a new process).
    for (const state of [
      { status: 'closed', reason: 'Disconnected by you' },
      { status: 'failed', reason: 'The server exited' },
      { status: 'connecting' },
      { status: 'idle' }
    ] as const) {
      const delivery = answerDelivery(asked, server(state));
      assert.deepEqual(delivery, { kind: 'kept', why: 'not-connected', until: task.expiresAt, processStopped: true });
      assert.equal(
        keptNote(asked, delivery),
        'Books is not connected, and the process that asked this has stopped. The one Taskdesk starts when it connects does not have this task, so Books will not fetch your answer.'
      );
      assert.match(
        answeredText(asked, delivery, answerSentText(asked)),
        /^Answer kept with the task until .+; Books is not connected, and the process that asked has stopped: Books will not fetch it\.$/
      );
      assert.equal(
        answerSaid(asked, 'cancel', delivery, answerSentText(asked)),
        'Dismissed Books’s question “Which shelf?”. Books is not connected, and the process that asked has stopped: Books will not fetch it.'
      );
    }
    // Not set apart with those asked before a restart (their servers run now, as new processes).
    assert.deepEqual(earlierProcessIds([asked], [server({ status: 'closed' })]), []);
  });

  it('says nothing more when the answer goes at once', () => {
    assert.equal(keptNote(item(task), { kind: 'now' }), undefined);
    assert.equal(answeredText(item(task), { kind: 'now' }, 'Reply sent to Books.'), 'Reply sent to Books.');
  });

  it('leaves the time out when the task has none', () => {
    const delivery = answerDelivery(item({ taskId: 't2' }), undefined);
    assert.equal(
      answeredText(item({ taskId: 't2' }), delivery, ''),
      'Answer kept for Books: it gets it when it asks for this task.'
    );
    assert.equal(
      keptNote(item({ taskId: 't2' }), delivery),
      'Books is not connected. Your answer is kept with the task, for when it connects and asks for it.'
    );
  });

  it('says what the person did (rejected, declined, dismissed) as well as that a kept answer is kept', () => {
    const earlier = readyHttp('2026-12-03T10:30:00.000Z');
    const request = item({
      ...task,
      kind: 'sampling-approval',
      request: { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise chapter one' } }], maxTokens: 10 }
    });
    const rejected = answerSaid(request, 'reject', answerDelivery(request, earlier), requestRejectedText(request));
    // The request named, then a sentence of its own for what became of the answer.
    assert.match(
      rejected,
      /^Rejected Books’s model request “Summarise chapter one”\. Answer kept for Books until .+: it gets it when it asks for this task\.$/
    );
    const question = item(task);
    assert.match(
      answerSaid(question, 'decline', answerDelivery(question, earlier), answerSentText(question)),
      /^Declined Books’s question “Which shelf\?”\. Answer kept for Books until .+: it gets it when it asks for this task\.$/
    );
    const closedHttp: ServerView = { ...server({ status: 'closed' }), transport: readyHttp('').transport };
    assert.match(
      answerSaid(question, 'cancel', answerDelivery(question, closedHttp), answerSentText(question)),
      /^Dismissed Books’s question “Which shelf\?”\. Answer kept for Books until .+: it gets it when it asks for this task\.$/
    );
    // An answer that goes at once says only what was done; an accepted one kept, that it is kept.
    assert.equal(
      answerSaid(question, 'decline', { kind: 'now' }, answerSentText(question)),
      'Declined Books’s question “Which shelf?”.'
    );
    // Two questions of one server declined read apart; one with no words keeps the server's line.
    const author = item({ ...task, id: 'i2', request: { message: 'Which author?' } });
    assert.equal(
      answerSaid(author, 'decline', { kind: 'now' }, answerSentText(author)),
      'Declined Books’s question “Which author?”.'
    );
    const wordless = item({ ...task, id: 'i3', request: { message: '  ' } });
    assert.equal(
      answerSaid(wordless, 'decline', { kind: 'now' }, answerSentText(wordless)),
      'Declined: Books’s question.'
    );
    assert.match(
      answerSaid(wordless, 'cancel', answerDelivery(wordless, earlier), answerSentText(wordless)),
      /^Dismissed: Books’s question\. Answer kept for Books until .+: it gets it when it asks for this task\.$/
    );
    assert.equal(
      answerSaid(request, 'reject', { kind: 'now' }, requestRejectedText(request)),
      'Rejected Books’s model request “Summarise chapter one”.'
    );
    assert.match(
      answerSaid(question, 'accept', answerDelivery(question, earlier), answerSentText(question)),
      /^Answer kept for Books until .+: it gets it when it asks for this task\.$/
    );
  });
});
