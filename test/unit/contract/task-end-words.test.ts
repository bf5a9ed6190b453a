import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taskEndNotice, type EndedTask } from '../../../app/contract/task-end-words.js';

/** What the system notification of a tool call's task that ended says, by how it ended. */

const base: EndedTask = { toolName: 'report', serverName: 'Books', state: 'completed', task: {} };
const text = (value: string) => ({ type: 'result' as const, result: { content: [{ type: 'text', text: value }] } });

describe('the notice of a tool call’s task that ended', () => {
  it('says it finished, with the first words of its result as plain text', () => {
    assert.deepEqual(taskEndNotice({ ...base, outcome: text('## Weekly report\n\nSales **rose** by 5%.') }), {
      title: 'report on Books finished',
      body: 'Weekly report Sales rose by 5%.'
    });
    const long = taskEndNotice({ ...base, outcome: text('word '.repeat(100)) });
    assert.equal(long?.body.length, 180);
    assert.ok(long?.body.endsWith('…'));
  });

  it('says where to look when the result has no text, and names a call the assistant made', () => {
    assert.deepEqual(
      taskEndNotice({
        ...base,
        origin: { kind: 'assistant' },
        outcome: { type: 'result', result: { content: [{ type: 'image', data: '', mimeType: 'image/png' }] } }
      }),
      { title: 'The assistant’s call of report on Books finished', body: 'Open Taskdesk to see it on Tasks.' }
    );
  });

  it('tells a tool error, a failure, the server’s cancel, an expiry and a lost task apart', () => {
    assert.deepEqual(
      taskEndNotice({
        ...base,
        outcome: { type: 'result', result: { content: [{ type: 'text', text: 'disk full' }], isError: true } }
      }),
      { title: 'report on Books ended with an error', body: 'disk full' }
    );
    assert.deepEqual(
      taskEndNotice({
        ...base,
        state: 'failed',
        outcome: { type: 'error', error: { code: -32050, message: 'Upstream quota exhausted' } }
      }),
      { title: 'report on Books failed', body: 'Upstream quota exhausted' }
    );
    assert.deepEqual(
      taskEndNotice({ ...base, state: 'cancelled', cancelledBy: 'server', task: { statusMessage: 'Shutting down' } }),
      { title: 'Books cancelled report', body: 'Shutting down' }
    );
    assert.deepEqual(
      taskEndNotice({ ...base, state: 'expired', reason: 'The task’s ttl ran out before its result was fetched.' }),
      {
        title: 'report on Books expired before its result came',
        body: 'The task’s ttl ran out before its result was fetched.'
      }
    );
    assert.equal(
      taskEndNotice({ ...base, state: 'lost', reason: 'Books no longer has this task.' })?.title,
      'Books no longer has the task of report'
    );
  });

  it('names a call the assistant made within a title too, and a result that could not be fetched', () => {
    const assistant = { ...base, origin: { kind: 'assistant' as const } };
    assert.equal(
      taskEndNotice({ ...assistant, state: 'cancelled', cancelledBy: 'server' })?.title,
      'Books cancelled the assistant’s call of report'
    );
    assert.equal(
      taskEndNotice({ ...assistant, state: 'lost' })?.title,
      'Books no longer has the task of the assistant’s call of report'
    );
    assert.deepEqual(
      taskEndNotice({
        ...base,
        outcome: { type: 'error', error: { code: -32603, message: 'Task has no result stored' } }
      }),
      { title: 'report on Books finished, but its result could not be fetched', body: 'Task has no result stored' }
    );
  });

  it('says nothing of a task the person cancelled, nor of one still running', () => {
    assert.equal(taskEndNotice({ ...base, state: 'cancelled', cancelledBy: 'you' }), undefined);
    assert.equal(taskEndNotice({ ...base, state: 'working' }), undefined);
    assert.equal(taskEndNotice({ ...base, state: 'input_required' }), undefined);
  });

  it('says nothing of a task the person’s own act lost (a Disconnect, Remove or restarting Save)', () => {
    assert.equal(
      taskEndNotice({
        ...base,
        state: 'lost',
        lostByYou: true,
        reason: 'You disconnected Books: its process, which ran this task, was stopped.'
      }),
      undefined
    );
  });
});
