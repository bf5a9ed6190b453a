import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboundTask, InboxItem, PlainCallView, ServerView } from '../../../app/contract/host-api.js';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import { disconnectWords, disconnectWork, workEndsSentence } from '../../../renderer/servers/disconnect-words.js';

const READY_SINCE = '2026-05-01T10:00:00.000Z';
const server = (transport: 'stdio' | 'http', status: ServerView['state']['status'] = 'ready'): ServerView => ({
  id: 'one',
  name: 'Everything',
  transport: { type: transport, target: transport === 'stdio' ? 'node server.js' : 'http://127.0.0.1:9/mcp' },
  state: { status, ...(status === 'ready' && { readySince: READY_SINCE }) }
});
const call = (callId: string, serverId: string, state: PlainCallView['state']) =>
  ({ callId, serverId, state }) as PlainCallView;
const outboundTask = (outboundId: string, serverId: string, state: OutboundTaskView['state']) =>
  ({ outboundId, serverId, state }) as OutboundTaskView;
const item = (id: string, serverId: string, extra: Partial<InboxItem> = {}) =>
  ({ id, serverId, kind: 'elicitation', createdAt: '2026-05-01T10:05:00.000Z', ...extra }) as InboxItem;
const received = (taskId: string, serverId: string, status: string, createdAt = '2026-05-01T10:05:00.000Z') =>
  ({ serverId, task: { taskId, status, createdAt } }) as InboundTask;

describe('what a Disconnect would end', () => {
  const calls = { a: call('a', 'one', 'running'), b: call('b', 'two', 'running'), c: call('c', 'one', 'completed') };
  const outbound = { t: outboundTask('t', 'one', 'input_required'), u: outboundTask('u', 'one', 'lost') };
  const inbox = [
    item('q', 'one', { relatedTaskId: 't' }),
    item('m', 'one', { kind: 'sampling-approval' }),
    // A task's question of this process ends with it (its task is ended); a multi round-trip
    // request's needs no connection; one of the process before stays (nobody will fetch it anyway).
    item('k', 'one', { taskId: 'k' }),
    item('r', 'one', { relatedCall: true }),
    item('old', 'one', { taskId: 'old', createdAt: '2026-05-01T09:00:00.000Z' }),
    item('o', 'two')
  ];
  const tasks = {
    k: received('k', 'one', 'input_required'),
    // Asked of the process before this one: already not fetched, whatever the Disconnect does.
    old: received('old', 'one', 'working', '2026-05-01T09:00:00.000Z'),
    done: received('done', 'one', 'completed'),
    // A model answering a task's request now: it stops with the process.
    run: { ...received('run', 'one', 'working'), kind: 'sampling' } as InboundTask,
    other: received('other', 'two', 'working')
  };

  it('counts on a stdio server the questions and model requests in the Inbox, with its tasks’, calls, tool tasks and model runs', () => {
    assert.deepEqual(disconnectWork(server('stdio'), calls, outbound, inbox, tasks), {
      calls: 1,
      tasks: 1,
      questions: 2,
      modelRequests: 1,
      modelRuns: 1
    });
  });

  it('on an HTTP server, leaves out the tasks: they stay with the server, for when it connects again', () => {
    assert.deepEqual(disconnectWork(server('http'), calls, outbound, inbox, tasks), {
      calls: 1,
      tasks: 0,
      questions: 1,
      modelRequests: 1,
      modelRuns: 0
    });
  });

  it('counts nothing for a server that is not ready', () => {
    for (const status of ['connecting', 'closed', 'failed'] as const)
      assert.deepEqual(disconnectWork(server('stdio', status), calls, outbound, inbox, tasks), {
        calls: 0,
        tasks: 0,
        questions: 0,
        modelRequests: 0,
        modelRuns: 0
      });
  });
});

describe('what the Disconnect confirmation says', () => {
  const none = { calls: 0, tasks: 0, questions: 0, modelRequests: 0, modelRuns: 0 };

  it('says nothing when nothing is under way: Disconnect asks nothing then', () => {
    assert.equal(disconnectWords('Everything', none), undefined);
  });

  it('names a waiting question and a running task, and why the task is lost', () => {
    assert.deepEqual(disconnectWords('Everything', { ...none, questions: 1, tasks: 1 }), [
      '1 question waiting in the Inbox will be withdrawn and 1 running task will be lost.',
      'Taskdesk stops Everything’s process, and the one it starts when you connect again does not have its tasks.'
    ]);
  });

  it('counts each kind, in the plural too; no word of a next process when no tool task is lost with it', () => {
    assert.deepEqual(
      disconnectWords('Everything', { calls: 2, tasks: 0, questions: 2, modelRequests: 1, modelRuns: 3 }),
      [
        '2 questions and 1 model request waiting in the Inbox will be withdrawn, 2 running calls will stop and 3 running model requests will stop.'
      ]
    );
  });

  it('says no process is stopped when only questions and calls end (an HTTP server)', () => {
    assert.deepEqual(disconnectWords('Remote', { ...none, modelRequests: 2, calls: 1 }), [
      '2 model requests waiting in the Inbox will be withdrawn and 1 running call will stop.'
    ]);
  });
});

describe('what the Remove confirmation says ends', () => {
  const none = { calls: 0, tasks: 0, questions: 0, modelRequests: 0, modelRuns: 0 };

  it('says nothing of work when none is under way', () => {
    assert.equal(workEndsSentence(none), undefined);
  });

  it('names what ends as Disconnect does, without a word of a process started at the next Connect', () => {
    assert.equal(
      workEndsSentence({ ...none, questions: 1, modelRequests: 1, calls: 1, tasks: 1, modelRuns: 1 }),
      '1 question and 1 model request waiting in the Inbox will be withdrawn, 1 running call will stop, 1 running model request will stop and 1 running task will be lost.'
    );
  });
});
