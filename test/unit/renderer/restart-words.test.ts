import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboundTask, InboxItem, PlainCallView } from '../../../app/contract/host-api.js';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import type { EditableServerInput } from '../../../app/contract/server-settings.js';
import { restartsServer, restartWords, runningWork } from '../../../renderer/servers/restart-words.js';

const stdio: EditableServerInput = {
  name: 'Everything',
  autoConnect: true,
  protocol: 'auto',
  transport: {
    type: 'stdio',
    command: 'node',
    args: ['server.js'],
    env: [
      { name: 'MODE', value: 'fast', secret: false },
      { name: 'API_TOKEN', secret: true }
    ]
  }
};
const withTransport = (transport: Partial<Extract<EditableServerInput['transport'], { type: 'stdio' }>>) => ({
  ...stdio,
  transport: { ...(stdio.transport as Extract<EditableServerInput['transport'], { type: 'stdio' }>), ...transport }
});

describe('whether saving restarts a server', () => {
  it('does not for a new name, Connect at start, or the entries in another order', () => {
    assert.equal(restartsServer(stdio, { ...stdio, name: 'Renamed', autoConnect: false }), false);
    assert.equal(
      restartsServer(
        stdio,
        withTransport({
          env: [
            { name: 'API_TOKEN', secret: true },
            { name: 'MODE', value: 'fast', secret: true }
          ]
        })
      ),
      false,
      'reordered, and MODE ticked as a secret with its value'
    );
  });

  it('does for the command, arguments, folder, env vars, a secret typed anew, the protocol, or a URL', () => {
    assert.equal(restartsServer(stdio, withTransport({ command: '/usr/bin/node' })), true);
    assert.equal(restartsServer(stdio, withTransport({ args: ['server.js', '--debug'] })), true);
    assert.equal(restartsServer(stdio, withTransport({ cwd: '/tmp' })), true);
    assert.equal(restartsServer(stdio, withTransport({ env: [{ name: 'MODE', value: 'fast' }] })), true);
    assert.equal(
      restartsServer(
        stdio,
        withTransport({
          env: [
            { name: 'MODE', value: 'fast', secret: false },
            { name: 'API_TOKEN', value: 'new', secret: true }
          ]
        })
      ),
      true
    );
    assert.equal(restartsServer(stdio, { ...stdio, protocol: '2025-11-25' }), true);
    assert.equal(
      restartsServer(stdio, { ...stdio, transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: [] } }),
      true
    );
  });
});

describe('what a restart would stop', () => {
  const READY_SINCE = '2026-05-01T10:00:00.000Z';
  const ASKED = '2026-05-01T10:05:00.000Z';
  const EARLIER = '2026-05-01T09:00:00.000Z';
  const server = (type: 'stdio' | 'http') =>
    ({ id: 'one', transport: { type }, state: { status: 'ready', readySince: READY_SINCE } }) as never;
  const call = (callId: string, serverId: string, state: PlainCallView['state']) =>
    ({ callId, serverId, state }) as PlainCallView;
  const task = (outboundId: string, serverId: string, state: OutboundTaskView['state']) =>
    ({ outboundId, serverId, state }) as OutboundTaskView;
  const question = (id: string, serverId: string, extra: Partial<InboxItem> = {}) =>
    ({ id, serverId, kind: 'elicitation', createdAt: ASKED, ...extra }) as InboxItem;
  const received = (taskId: string, kind: InboundTask['kind'], status: string, createdAt = ASKED) =>
    ({ serverId: 'one', kind, task: { taskId, status, createdAt } }) as InboundTask;
  const calls = { a: call('a', 'one', 'running'), b: call('b', 'two', 'running'), c: call('c', 'one', 'completed') };
  const outbound = { t: task('t', 'one', 'working'), u: task('u', 'one', 'completed') };
  const inbox = [
    question('q', 'one'),
    question('s', 'one', { relatedTaskId: 'x', relatedCall: true }),
    question('m', 'one', { kind: 'sampling-approval' }),
    question('n', 'one', { kind: 'sampling' })
  ];

  it('counts the running calls, the unfinished tasks of a stdio server, its ordinary questions and model requests', () => {
    assert.deepEqual(runningWork(server('stdio'), calls, outbound, inbox), {
      calls: 1,
      tasks: 1,
      questions: 1,
      modelRequests: 2,
      modelRuns: 0
    });
    // A Streamable HTTP server's tasks go on in the server, which is not stopped.
    assert.equal(runningWork(server('http'), calls, outbound, inbox).tasks, 0);
  });

  it('counts the questions and model requests of tasks a stdio server’s process gave Taskdesk, which end with it', () => {
    const withTasks = [
      ...inbox,
      // Asked by this process: its task ends with it, the question withdrawn.
      question('k', 'one', { taskId: 'k' }),
      question('p', 'one', { kind: 'sampling', taskId: 'p' }),
      // Asked by the process before: its answer was not going to be fetched, and stays.
      question('old', 'one', { taskId: 'old', createdAt: EARLIER })
    ];
    const tasks = {
      k: received('k', 'elicitation', 'input_required'),
      p: received('p', 'sampling', 'working'),
      // A model answering now, for a task of this process; one ended, and one of the process before.
      run: received('run', 'sampling', 'working'),
      done: received('done', 'sampling', 'completed'),
      older: received('older', 'sampling', 'working', EARLIER)
    };
    assert.deepEqual(runningWork(server('stdio'), calls, outbound, withTasks, tasks), {
      calls: 1,
      tasks: 1,
      questions: 2,
      modelRequests: 3,
      modelRuns: 1
    });
    // An HTTP server's tasks stay with it, for when it connects again: only its ordinary requests go.
    assert.deepEqual(runningWork(server('http'), calls, outbound, withTasks, tasks), {
      calls: 1,
      tasks: 0,
      questions: 1,
      modelRequests: 2,
      modelRuns: 0
    });
  });

  it('does not count a question or model request whose answer is held for its undo window: it is sent first', () => {
    const held = { q: { phase: 'held' }, m: { phase: 'sending' } };
    assert.deepEqual(runningWork(server('stdio'), calls, outbound, inbox, {}, held), {
      calls: 1,
      tasks: 1,
      questions: 0,
      modelRequests: 1,
      modelRuns: 0
    });
  });

  it('says it in a line, or nothing when nothing would stop', () => {
    const none = { calls: 0, tasks: 0, questions: 0, modelRequests: 0, modelRuns: 0 };
    assert.equal(
      restartWords('Everything', { ...none, calls: 1 }),
      'Saving restarts Everything: 1 running call will stop.'
    );
    // Tasks as the Disconnect and Remove confirmations say them: lost, not stopped.
    assert.equal(
      restartWords('Everything', { ...none, calls: 2, tasks: 1, questions: 3 }),
      'Saving restarts Everything: 3 questions waiting in the Inbox will be withdrawn, 2 running calls will stop and 1 running task will be lost.'
    );
    assert.equal(
      restartWords('Everything', { ...none, tasks: 2 }),
      'Saving restarts Everything: 2 running tasks will be lost.'
    );
    assert.equal(
      restartWords('Everything', { ...none, questions: 1 }),
      'Saving restarts Everything: 1 question waiting in the Inbox will be withdrawn.'
    );
    // A model request waiting is no question: named as what it is.
    assert.equal(
      restartWords('Everything', { ...none, calls: 1, questions: 1, modelRequests: 2 }),
      'Saving restarts Everything: 1 question and 2 model requests waiting in the Inbox will be withdrawn and 1 running call will stop.'
    );
    assert.equal(
      restartWords('Everything', { ...none, modelRequests: 1 }),
      'Saving restarts Everything: 1 model request waiting in the Inbox will be withdrawn.'
    );
    assert.equal(
      restartWords('Everything', { ...none, modelRuns: 1 }),
      'Saving restarts Everything: 1 running model request will stop.'
    );
    assert.equal(restartWords('Everything', none), undefined);
  });
});
