import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import {
  McpError,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  CancelTaskResultSchema,
  ElicitResultSchema,
  CreateMessageResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  nextEvent,
  peerServer,
  startHostWith,
  type InMemoryHostFixture,
  type PeerServer
} from '../support/host-fixture.js';

const Loose = z.looseObject({});
const RELATED = 'io.modelcontextprotocol/related-task';

const formParams = {
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 2 },
      age: { type: 'integer', minimum: 0 },
      email: { type: 'string', format: 'email' }
    },
    required: ['name']
  }
} as const;

const samplingParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
  maxTokens: 50
} as const;

async function expectMcpError(promise: Promise<unknown>, code: number): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, `expected McpError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected an MCP error ${code}`);
}

describe('receiver over an in-memory SDK server', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('answers a task-augmented elicitation at once, then serves get, result and status notifications', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer });
    const { host } = fixture;
    const added = nextEvent(host, 'inbox.added');
    const created = await peer.server.request(
      { method: 'elicitation/create', params: { ...formParams, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const { task } = created;
    assert.equal(task.status, 'working');
    assert.equal(task.ttl, 60_000);
    assert.equal(typeof task.pollInterval, 'number');
    assert.ok(Buffer.from(task.taskId, 'base64url').length * 8 >= 128, 'task id carries at least 128 random bits');
    assert.ok(!Number.isNaN(Date.parse(task.createdAt)) && !Number.isNaN(Date.parse(task.lastUpdatedAt)));

    const { item } = await added;
    assert.equal(item.id, task.taskId);
    assert.equal(item.kind, 'elicitation');
    assert.equal(item.serverId, 'a');

    const got = await peer.server.request(
      { method: 'tasks/get', params: { taskId: task.taskId } },
      GetTaskResultSchema
    );
    assert.equal(got.status, 'working');

    // tasks/result blocks until the user answers.
    const resultPromise = peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    const bad = await host.dispatch('inbox.answer', {
      id: item.id,
      answer: { action: 'accept', content: { name: 'A', age: 1.5, email: 'nope' } }
    });
    assert.equal(bad.ok, false);
    if (!bad.ok) {
      assert.equal(bad.error.code, -32602);
      assert.deepEqual(Object.keys((bad.error.data as { fields: Record<string, string> }).fields).sort(), [
        'age',
        'email',
        'name'
      ]);
    }
    const completedNote = peer.nextNotification('notifications/tasks/status', (p) => p.status === 'completed');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada', age: 36 } } });
    const note = await completedNote;
    assert.equal(note.taskId, task.taskId);
    assert.equal(note.ttl, 60_000);
    assert.equal(
      (note._meta as Record<string, unknown> | undefined)?.[RELATED],
      undefined,
      'status notifications carry no related-task meta'
    );

    const result = await resultPromise;
    assert.deepEqual(ElicitResultSchema.parse(result).content, { name: 'Ada', age: 36 });
    assert.equal(result.action, 'accept');
    assert.deepEqual((result._meta as Record<string, unknown>)[RELATED], { taskId: task.taskId });

    const types = host.audit
      .read({ taskId: task.taskId })
      .map((entry) => entry.type)
      .reverse();
    assert.deepEqual(types, ['task.created', 'inbox.answered', 'task.status', 'task.result-retrieved']);
    assert.equal(host.inbox.list().length, 0);
  });

  it('caps a requested TTL at the maximum and uses the default when none is asked', async () => {
    const peer = peerServer();
    fixture = await startHostWith(
      { a: peer },
      { policy: { ttl: { sampling: { default: 1000, max: 5000 }, elicitation: { default: 2000, max: 9000 } } } }
    );
    const big = await peer.server.request(
      { method: 'sampling/createMessage', params: { ...samplingParams, task: { ttl: 10 ** 9 } } },
      CreateTaskResultSchema
    );
    assert.equal(big.task.ttl, 5000);
    const none = await peer.server.request(
      { method: 'elicitation/create', params: { ...formParams, task: {} } },
      CreateTaskResultSchema
    );
    assert.equal(none.task.ttl, 2000);
  });

  it('replays through tasks/result exactly the error an ordinary rejected sampling request gets', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer });
    const { host } = fixture;

    const ordinaryAdded = nextEvent(host, 'inbox.added');
    const ordinary = peer.server.request(
      { method: 'sampling/createMessage', params: samplingParams },
      CreateMessageResultSchema
    );
    const ordinaryItem = (await ordinaryAdded).item;
    assert.equal(ordinaryItem.taskId, undefined);
    await host.call('inbox.answer', { id: ordinaryItem.id, answer: { action: 'reject' } });
    const ordinaryError = await expectMcpError(ordinary, -1);

    const added = nextEvent(host, 'inbox.added');
    const { task } = await peer.server.request(
      { method: 'sampling/createMessage', params: { ...samplingParams, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const failed = peer.nextNotification(
      'notifications/tasks/status',
      (p) => p.taskId === task.taskId && p.status === 'failed'
    );
    await host.call('inbox.answer', { id: (await added).item.id, answer: { action: 'reject' } });
    assert.equal((await failed).statusMessage, 'User rejected sampling request');
    const replayed = await expectMcpError(
      peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose),
      -1
    );
    assert.equal(replayed.message, ordinaryError.message);
  });

  it('answers an unknown host method or bad params as error data, prototype names included', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer });
    for (const method of ['constructor', 'toString', '__proto__', 'no.such']) {
      const reply: { ok: boolean; error?: { code: number } } = await fixture.host.dispatch(method as never, {});
      assert.deepEqual(reply.ok ? 'ok' : reply.error?.code, -32601, method);
    }
    const bad = await fixture.host.dispatch('tasks.get', { taskId: 42 });
    assert.equal(bad.ok ? 'ok' : bad.error.code, -32602);
  });

  it('answers ordinary sampling and elicitation through the same inbox', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer });
    const { host } = fixture;
    const added = nextEvent(host, 'inbox.added');
    const sampling = peer.server.request(
      { method: 'sampling/createMessage', params: samplingParams },
      CreateMessageResultSchema
    );
    await host.call('inbox.answer', {
      id: (await added).item.id,
      answer: { action: 'reply', text: 'hi there', model: 'me' }
    });
    const result = await sampling;
    assert.deepEqual(result.content, { type: 'text', text: 'hi there' });
    assert.equal(result.model, 'me');

    const addedForm = nextEvent(host, 'inbox.added');
    const elicit = peer.server.request({ method: 'elicitation/create', params: formParams }, ElicitResultSchema);
    await host.call('inbox.answer', { id: (await addedForm).item.id, answer: { action: 'decline' } });
    assert.equal((await elicit).action, 'decline');
    assert.equal(host.receiver.records().length, 0, 'ordinary requests create no tasks');
  });

  it('handles URL-mode elicitation: the user consents, and no content goes back', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer });
    const { host } = fixture;
    const added = nextEvent(host, 'inbox.added');
    const { task } = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'url',
          message: 'Sign in to continue',
          url: 'https://auth.example/login',
          elicitationId: 'e-1',
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const { item } = await added;
    assert.equal(item.request.url, 'https://auth.example/login');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { sneaky: 'value' } } });
    const result = await peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    assert.equal(result.action, 'accept');
    assert.equal(result.content, undefined);
  });

  it('tags the reply to a side-channel request with its related task, and limits ordinary requests too', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { policy: { maxActiveTasksPerServer: 1 } });
    const { host } = fixture;
    const added = nextEvent(host, 'inbox.added');
    const asking = peer.server.request(
      { method: 'elicitation/create', params: { ...formParams, _meta: { [RELATED]: { taskId: 'their-tool-task' } } } },
      ElicitResultSchema
    );
    const { item } = await added;
    assert.equal(item.relatedTaskId, 'their-tool-task');
    const second = await peer.server
      .request({ method: 'elicitation/create', params: formParams }, ElicitResultSchema)
      .then(
        () => 0,
        (error: McpError) => error.code
      );
    assert.equal(second, -32029, 'a second open request goes over the cap of one');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    const result = await asking;
    assert.deepEqual(result._meta?.[RELATED], { taskId: 'their-tool-task' });
  });

  it('lets the user cancel however busy the server is, and records no late result for aborted work', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { policy: { operationsBurst: 1, operationsPerSecond: 0.001 } });
    const { host } = fixture;
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...formParams, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    await expectMcpError(
      peer.server.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema),
      -32029
    );
    const cancelled = await host.call('tasks.cancel', { taskId: task.taskId });
    assert.equal(cancelled.status, 'cancelled');
    await new Promise((resolve) => setImmediate(resolve));
    const types = host.audit.read({ taskId: task.taskId }).map((entry) => entry.type);
    assert.ok(types.includes('task.cancelled'));
    assert.equal(types.includes('task.late-result-dropped'), false);
  });

  it('cancels a working task before answering, withdraws its inbox item, and refuses to cancel it again', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer });
    const { host } = fixture;
    const added = nextEvent(host, 'inbox.added');
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...formParams, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const { item } = await added;
    const waiting = peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    const withdrawn = nextEvent(host, 'inbox.removed', (p) => p.id === item.id);
    const cancelled = await peer.server.request(
      { method: 'tasks/cancel', params: { taskId: task.taskId } },
      CancelTaskResultSchema
    );
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await withdrawn).why, 'withdrawn');
    const stored = await peer.server.request(
      { method: 'tasks/get', params: { taskId: task.taskId } },
      GetTaskResultSchema
    );
    assert.equal(stored.status, 'cancelled');
    await expectMcpError(waiting, -32800);
    await expectMcpError(
      peer.server.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, CancelTaskResultSchema),
      -32602
    );
    const answerLate = await host.dispatch('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    assert.equal(answerLate.ok, false);
    assert.equal(
      (await peer.server.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema)).status,
      'cancelled'
    );
  });

  it('gives −32602 for unknown ids and keeps each server to its own tasks', async () => {
    const a = peerServer('a');
    const b = peerServer('b');
    fixture = await startHostWith({ a, b });
    const { task } = await a.server.request(
      { method: 'elicitation/create', params: { ...formParams, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );

    const unknown = await expectMcpError(
      a.server.request({ method: 'tasks/get', params: { taskId: 'no-such-task' } }, GetTaskResultSchema),
      -32602
    );
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'] as const) {
      const foreign = await expectMcpError(
        b.server.request({ method, params: { taskId: task.taskId } }, Loose),
        -32602
      );
      assert.equal(
        foreign.message.replace(task.taskId, 'ID'),
        unknown.message.replace('no-such-task', 'ID'),
        `${method} answers a foreign id like an unknown one`
      );
    }
    const listedByB = await b.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    assert.deepEqual(listedByB.tasks, []);
    const listedByA = await a.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    assert.deepEqual(
      listedByA.tasks.map((t) => t.taskId),
      [task.taskId]
    );
    assert.ok(
      fixture.host.audit
        .read({ serverId: 'b' })
        .some((entry) => entry.type === 'task.unknown-id' && entry.taskId === task.taskId)
    );
  });

  it('pages tasks/list with opaque cursors and rejects a bad cursor with −32602', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { policy: { listPageSize: 3 } });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        (
          await peer.server.request(
            { method: 'elicitation/create', params: { ...formParams, task: { ttl: 60_000 } } },
            CreateTaskResultSchema
          )
        ).task.taskId
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await peer.server.request(
        { method: 'tasks/list', params: cursor ? { cursor } : {} },
        ListTasksResultSchema
      );
      assert.ok(page.tasks.length <= 3);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ids);
    await expectMcpError(
      peer.server.request({ method: 'tasks/list', params: { cursor: 'garbage' } }, ListTasksResultSchema),
      -32602
    );
  });

  it('enforces the open-task cap, the rate limit and the payload limit with clear errors', async () => {
    const peer = peerServer();
    fixture = await startHostWith(
      { a: peer },
      { policy: { maxActiveTasksPerServer: 2, operationsBurst: 5, operationsPerSecond: 1, maxRequestBytes: 2000 } }
    );
    for (let i = 0; i < 2; i++)
      await peer.server.request(
        { method: 'elicitation/create', params: { ...formParams, task: {} } },
        CreateTaskResultSchema
      );
    const capped = await expectMcpError(
      peer.server.request(
        { method: 'elicitation/create', params: { ...formParams, task: {} } },
        CreateTaskResultSchema
      ),
      -32029
    );
    assert.match(capped.message, /Too many open tasks/);
    const huge = { ...formParams, message: 'x'.repeat(5000), task: {} };
    const tooBig = await expectMcpError(
      peer.server.request({ method: 'elicitation/create', params: huge }, CreateTaskResultSchema),
      -32600
    );
    assert.match(tooBig.message, /too large/);
    let limited: McpError | undefined;
    for (let i = 0; i < 10 && !limited; i++) {
      try {
        await peer.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
      } catch (error) {
        limited = error as McpError;
      }
    }
    assert.ok(limited, 'the rate limit answers before ten calls');
    assert.ok(fixture.host.audit.read({ serverId: 'a' }).some((entry) => entry.type === 'task.rate-limited'));
    assert.equal(limited.code, -32029);
    assert.equal(typeof (limited.data as { retryAfterMs?: unknown }).retryAfterMs, 'number');
  });

  it('has the task in the journal before acknowledging it, then in an electron-store document', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer });
    const { task } = await peer.server.request(
      { method: 'sampling/createMessage', params: { ...samplingParams, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const dir = path.join(fixture.dir, 'tasks');
    assert.match(
      fs.readFileSync(path.join(dir, 'wal.log'), 'utf8'),
      new RegExp(task.taskId),
      'journalled before the ack'
    );
    fixture.host.receiver.flush();
    const stored = fs
      .readdirSync(dir)
      .filter((file) => file.startsWith('seg-'))
      .flatMap(
        (file) =>
          (
            JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
              entries: Array<
                [string, { schemaVersion: number; task: { status: string }; request: Record<string, unknown> }]
              >;
            }
          ).entries
      )
      .filter(([id]) => id === task.taskId)
      .map(([, record]) => record);
    assert.ok(stored.length >= 1, 'the acknowledged task is in a segment file');
    assert.equal(stored[0]!.schemaVersion, 1);
    assert.equal(stored[0]!.task.status, 'working');
    assert.deepEqual(stored[0]!.request.messages, samplingParams.messages);
    assert.equal(stored[0]!.request.task, undefined);
  });
});

export type { PeerServer };
