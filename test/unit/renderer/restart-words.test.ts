import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem, PlainCallView } from '../../../app/contract/host-api.js';
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
  const call = (callId: string, serverId: string, state: PlainCallView['state']) =>
    ({ callId, serverId, state }) as PlainCallView;
  const task = (outboundId: string, serverId: string, state: OutboundTaskView['state']) =>
    ({ outboundId, serverId, state }) as OutboundTaskView;
  const question = (id: string, serverId: string, extra: Partial<InboxItem> = {}) =>
    ({ id, serverId, kind: 'elicitation', ...extra }) as InboxItem;
  const calls = { a: call('a', 'one', 'running'), b: call('b', 'two', 'running'), c: call('c', 'one', 'completed') };
  const outbound = { t: task('t', 'one', 'working'), u: task('u', 'one', 'completed') };
  const inbox = [
    question('q', 'one'),
    question('r', 'one', { taskId: 'task-1' }),
    question('s', 'one', { relatedTaskId: 'x', relatedCall: true }),
    question('m', 'one', { kind: 'sampling-approval' }),
    question('n', 'one', { kind: 'sampling' })
  ];

  it('counts the running calls, the unfinished tasks of a stdio server, its ordinary questions and model requests', () => {
    assert.deepEqual(runningWork({ id: 'one', transport: { type: 'stdio' } as never }, calls, outbound, inbox), {
      calls: 1,
      tasks: 1,
      questions: 1,
      modelRequests: 2
    });
    // A Streamable HTTP server's tasks go on in the server, which is not stopped.
    assert.equal(runningWork({ id: 'one', transport: { type: 'http' } as never }, calls, outbound, inbox).tasks, 0);
  });

  it('says it in a line, or nothing when nothing would stop', () => {
    const none = { calls: 0, tasks: 0, questions: 0, modelRequests: 0 };
    assert.equal(
      restartWords('Everything', { ...none, calls: 1 }),
      'Saving restarts Everything: 1 running call will stop.'
    );
    assert.equal(
      restartWords('Everything', { calls: 2, tasks: 1, questions: 3, modelRequests: 0 }),
      'Saving restarts Everything: 2 running calls and 1 task will stop, and 3 questions in the Inbox will be withdrawn.'
    );
    assert.equal(
      restartWords('Everything', { ...none, questions: 1 }),
      'Saving restarts Everything: 1 question in the Inbox will be withdrawn.'
    );
    // A model request waiting is no question: named as what it is.
    assert.equal(
      restartWords('Everything', { ...none, calls: 1, questions: 1, modelRequests: 2 }),
      'Saving restarts Everything: 1 running call will stop, and 1 question and 2 model requests in the Inbox will be withdrawn.'
    );
    assert.equal(
      restartWords('Everything', { ...none, modelRequests: 1 }),
      'Saving restarts Everything: 1 model request in the Inbox will be withdrawn.'
    );
    assert.equal(restartWords('Everything', none), undefined);
  });
});
