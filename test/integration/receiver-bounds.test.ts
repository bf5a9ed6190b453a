import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  McpError
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import path from 'node:path';
import { createHost, type Host } from '../../app/host/host.js';
import { ownerIdentity } from '../../app/mcp/server-config.js';
import { TASK_RECORD_VERSION, type TaskRecord } from '../../app/receiver/task-record.js';
import { newTaskId } from '../../app/receiver/task-receiver.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import type { ReceiverPolicy } from '../../app/receiver/receiver-policy.js';
import {
  nextEvent,
  peerServer,
  startHostWith,
  tempDir,
  type InMemoryHostFixture,
  type PeerServer
} from '../support/host-fixture.js';

const Loose = z.looseObject({});
const KiB = 1024;
const MiB = 1024 * KiB;

/** A form elicitation whose message is `size` characters long. */
function bigForm(size: number, label = 'x') {
  return {
    mode: 'form',
    message: label.repeat(size),
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
  };
}

async function mcpCode(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, String(error));
    return { code: error.code, message: error.message, data: error.data };
  }
  assert.fail('expected an MCP error');
}

/** Sends an elicitation as a task and cancels it at once, as the hostile server did. */
async function createAndCancel(peer: PeerServer, size: number): Promise<string> {
  const { task } = await peer.server.request(
    { method: 'elicitation/create', params: { ...bigForm(size), task: { ttl: 7 * 86_400_000 } } },
    CreateTaskResultSchema
  );
  await peer.server.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, CancelTaskResultSchema);
  return task.taskId;
}

function identityOf(host: Host, taskId: string): string {
  const record = host.receiver.record(taskId);
  assert.ok(record, `task ${taskId} is held`);
  return record.owner.identity;
}

/** Task ids the audit log says expired, oldest first, for one server. */
function expiredIds(host: Host, serverId: string): Array<{ taskId: string; reason: unknown }> {
  return host.audit
    .read({ limit: 10_000, serverId })
    .filter((entry) => entry.type === 'task.expired')
    .reverse()
    .map((entry) => ({ taskId: entry.taskId!, reason: entry.detail?.reason }));
}

const relaxed: Partial<ReceiverPolicy> = { operationsPerSecond: 1e6, operationsBurst: 1e6 };

/** The owner of tasks of the in-memory server `id`, as `startHostWith` configures it. */
function ownerOf(id: string): TaskRecord['owner'] {
  return {
    serverId: id,
    serverName: `Server ${id}`,
    identity: ownerIdentity({
      id,
      name: `Server ${id}`,
      transport: { type: 'stdio', command: `in-memory-${id}`, args: [] },
      autoConnect: true
    })
  };
}

/** A stored elicitation task of `size` characters, finished (cancelled) at `finishedAt` unless `open`. */
export function storedElicitation(
  owner: TaskRecord['owner'],
  size: number,
  finishedAt: number,
  sequence: number,
  open = false
): TaskRecord {
  const created = new Date(finishedAt - 1_000).toISOString();
  return {
    schemaVersion: TASK_RECORD_VERSION,
    task: {
      taskId: newTaskId(),
      status: open ? 'working' : 'cancelled',
      ...(!open && { statusMessage: 'The task was cancelled by request.' }),
      createdAt: created,
      lastUpdatedAt: open ? created : new Date(finishedAt).toISOString(),
      ttl: 7 * 86_400_000,
      pollInterval: 5_000
    },
    owner,
    kind: 'elicitation',
    request: bigForm(size),
    ...(!open && {
      outcome: { type: 'error' as const, error: { code: -32800, message: 'Task was cancelled: by request' } }
    }),
    expiresAt: Date.now() + 7 * 86_400_000,
    notes: [],
    sequence
  };
}

/** Writes `groups` of records into a task store, one document per group. */
async function writeStore(dir: string, groups: TaskRecord[][]): Promise<void> {
  const log = new SegmentLog<TaskRecord>({
    dir: path.join(dir, 'tasks'),
    corruptDir: path.join(dir, 'corrupt'),
    factory: confStoreFactory,
    journal: false
  });
  log.load((value) => value as TaskRecord);
  for (const group of groups) await Promise.all(group.map((record) => log.put(record.task.taskId, record)));
  log.close();
}

describe('storage bounds on what servers can make Taskdesk keep', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('expires the oldest finished tasks of a server flooding large cancelled elicitations, and only of that server', async () => {
    const a = peerServer('flooder');
    const b = peerServer('bystander');
    const policy: Partial<ReceiverPolicy> = {
      ...relaxed,
      maxStoredBytesPerServer: 2 * MiB,
      maxOpenBytesPerServer: 1 * MiB
    };
    fixture = await startHostWith({ a, b }, { policy });
    const { host } = fixture;
    // The bystander's finished tasks, older than every one of the flood's.
    const bystanders = [await createAndCancel(b, 1_000), await createAndCancel(b, 1_000)];
    const identityB = identityOf(host, bystanders[0]!);
    const usageB = host.receiver.usage(identityB);

    const removedFromUi: string[] = [];
    host.on('task.changed', ({ taskId, task }) => {
      if (!task) removedFromUi.push(taskId);
    });
    const flood: string[] = [];
    let identityA = '';
    let mostBytes = 0;
    let mostFinished = 0;
    for (let i = 0; i < 30; i++) {
      flood.push(await createAndCancel(a, 200 * KiB));
      if (i === 0) identityA = identityOf(host, flood[0]!);
      const usage = host.receiver.usage(identityA);
      mostBytes = Math.max(mostBytes, usage.bytes);
      mostFinished = Math.max(mostFinished, usage.finished);
    }
    const usageA = host.receiver.usage(identityA);
    // 30 × 200 KiB were sent; what is held never went above the bound.
    assert.ok(mostBytes <= 2 * MiB, `held ${mostBytes} bytes for the flooding server`);
    assert.ok(usageA.bytes > 1.5 * MiB, `the bound is used, not emptied (${usageA.bytes})`);
    assert.equal(usageA.tasks, usageA.finished);
    const kept = usageA.finished;
    assert.ok(kept >= 7 && kept <= 10, `kept ${kept}`);

    // Oldest first: exactly the first tasks of the flood expired, in order, each audited as an early expiry.
    const expired = expiredIds(host, 'a');
    assert.deepEqual(
      expired.map((entry) => entry.taskId),
      flood.slice(0, flood.length - kept)
    );
    for (const entry of expired) assert.match(String(entry.reason), /Expired early/);
    assert.deepEqual(removedFromUi, flood.slice(0, flood.length - kept));
    // The server is told as for an expired task: the id is unknown now.
    for (const taskId of [flood[0]!, flood.at(-kept - 1)!]) {
      assert.equal((await mcpCode(a.server.request({ method: 'tasks/get', params: { taskId } }, Loose))).code, -32602);
      assert.equal(
        (await mcpCode(a.server.request({ method: 'tasks/result', params: { taskId } }, Loose))).code,
        -32602
      );
    }
    for (const taskId of flood.slice(-kept)) {
      const got = await a.server.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
      assert.equal(got.status, 'cancelled');
    }
    // The other server lost nothing.
    assert.deepEqual(host.receiver.usage(identityB), usageB);
    assert.deepEqual(expiredIds(host, 'b'), []);
    for (const taskId of bystanders) {
      const got = await b.server.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
      assert.equal(got.status, 'cancelled');
    }

    // Gone from disk too: a restart finds only what was kept.
    await fixture.stop();
    const a2 = peerServer('flooder');
    const b2 = peerServer('bystander');
    fixture = await startHostWith({ a: a2, b: b2 }, { policy, dir: fixture.dir });
    const restarted = fixture.host;
    assert.deepEqual(restarted.receiver.usage(identityA), usageA);
    assert.equal(restarted.receiver.record(flood[0]!), undefined);
    assert.ok(restarted.receiver.record(flood.at(-1)!));
    assert.deepEqual(restarted.receiver.usage(identityB), usageB);
  });

  it('bounds what a flood of large sampling requests refused by policy leaves behind', async () => {
    const a = peerServer('sampler');
    fixture = await startHostWith({ a }, { policy: { ...relaxed, maxStoredBytesPerServer: 1 * MiB } });
    const { host } = fixture;
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'refuse' } });
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { task } = await a.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 's'.repeat(200 * KiB) } }],
            maxTokens: 10,
            task: { ttl: 86_400_000 }
          }
        },
        CreateTaskResultSchema
      );
      sent.push(task.taskId);
      const refused = await mcpCode(
        a.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose)
      );
      assert.equal(refused.code, -1);
    }
    const identity = host.receiver.record(sent.at(-1)!)!.owner.identity;
    const usage = host.receiver.usage(identity);
    assert.ok(usage.bytes <= 1 * MiB, `holds ${usage.bytes} bytes`);
    assert.ok(usage.finished >= 3 && usage.finished < 6, `keeps ${usage.finished}`);
    assert.deepEqual(
      expiredIds(host, 'a').map((entry) => entry.taskId),
      sent.slice(0, sent.length - usage.finished)
    );
    assert.equal((await host.call('tasks.list', {})).length, usage.tasks);
  });

  it('bounds the number of finished tasks per server, and in total by taking from the server holding most', async () => {
    const a = peerServer('a');
    const b = peerServer('b');
    fixture = await startHostWith(
      { a, b },
      { policy: { ...relaxed, maxFinishedTasksPerServer: 5, maxFinishedTasksTotal: 8 } }
    );
    const { host } = fixture;
    const ofB = [];
    for (let i = 0; i < 4; i++) ofB.push(await createAndCancel(b, 10));
    const ofA = [];
    for (let i = 0; i < 7; i++) ofA.push(await createAndCancel(a, 10));
    const identityA = identityOf(host, ofA.at(-1)!);
    const identityB = identityOf(host, ofB[0]!);
    // A: 7 finished, above its own 5: its two oldest went. Then 5 + 4 = 9 > 8 in total: A holds
    // most, so A lost its oldest again; B kept all four.
    assert.equal(host.receiver.usage(identityA).finished, 4);
    assert.equal(host.receiver.usage(identityB).finished, 4);
    assert.equal(host.receiver.usage().finished, 8);
    assert.deepEqual(
      expiredIds(host, 'a').map((entry) => entry.taskId),
      ofA.slice(0, 3)
    );
    assert.deepEqual(expiredIds(host, 'b'), []);
  });

  it('refuses a task once the server (or every server) holds too many bytes of unfinished tasks and waiting requests', async () => {
    const a = peerServer('a');
    const b = peerServer('b');
    fixture = await startHostWith(
      { a, b },
      { policy: { ...relaxed, maxOpenBytesPerServer: 1 * MiB, maxOpenBytesTotal: 1.25 * MiB } }
    );
    const send = (peer: PeerServer) =>
      peer.server.request(
        { method: 'elicitation/create', params: { ...bigForm(300 * KiB), task: { ttl: 60_000 } } },
        CreateTaskResultSchema
      );
    const { host } = fixture;
    // Two ordinary elicitations of A wait in the inbox: held like unfinished tasks, and counted.
    const inInbox = new Promise<void>((resolve) => {
      let added = 0;
      host.on('inbox.added', () => ++added === 2 && resolve());
    });
    const ordinary = [0, 1].map(() =>
      a.server.request({ method: 'elicitation/create', params: bigForm(300 * KiB) }, Loose).catch(() => undefined)
    );
    await inInbox;
    await send(a);
    const refused = await mcpCode(send(a));
    assert.equal(refused.code, -32029);
    assert.match(refused.message, /Too much unfinished work: this server's unfinished tasks and requests/);
    assert.equal((refused.data as { limit: number }).limit, 1 * MiB);
    // B has nothing open, but all servers together are at the total.
    await send(b);
    const total = await mcpCode(send(b));
    assert.equal(total.code, -32029);
    assert.match(total.message, /all servers' unfinished tasks/);
    assert.equal((total.data as { limit: number }).limit, 1.25 * MiB);
    await fixture.dispose();
    fixture = undefined;
    await Promise.all(ordinary);
  });

  it('fails a task whose result is larger than the cap, with a status message that says so', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { policy: { ...relaxed, maxResultBytes: 8 * KiB } });
    const { host } = fixture;
    const ask = async (name: string) => {
      const added = nextEvent(host, 'inbox.added');
      const { task } = await peer.server.request(
        { method: 'elicitation/create', params: { ...bigForm(10), task: { ttl: 60_000 } } },
        CreateTaskResultSchema
      );
      const { item } = await added;
      host.inbox.answer(item.id, { action: 'accept', content: { name } });
      return task.taskId;
    };
    const small = await ask('Ada');
    const large = await ask('y'.repeat(20 * KiB));
    const smallResult = await peer.server.request({ method: 'tasks/result', params: { taskId: small } }, Loose);
    assert.deepEqual(smallResult.content, { name: 'Ada' });
    const refused = await mcpCode(peer.server.request({ method: 'tasks/result', params: { taskId: large } }, Loose));
    assert.equal(refused.code, -32603);
    assert.match(refused.message, /too large to keep: \d+ bytes of JSON, Taskdesk keeps at most 8192/);
    const got = await peer.server.request({ method: 'tasks/get', params: { taskId: large } }, GetTaskResultSchema);
    assert.equal(got.status, 'failed');
    assert.match(got.statusMessage ?? '', /too large to keep/);
    // Nothing of the large answer was kept.
    assert.ok(!JSON.stringify(host.receiver.record(large)).includes('y'.repeat(100)));
  });

  it('lists summaries in tasks.list and task.changed, and keeps the whole record for tasks.get', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { policy: relaxed });
    const { host } = fixture;
    const changed = nextEvent(host, 'task.changed', ({ task }) => task?.task.status === 'cancelled');
    const taskId = await createAndCancel(peer, 500 * KiB);
    const event = await changed;
    const [listed] = await host.call('tasks.list', {});
    for (const summary of [listed!, event.task!]) {
      assert.equal(summary.task.taskId, taskId);
      assert.equal(summary.task.status, 'cancelled');
      assert.equal(summary.truncated, true);
      assert.equal(summary.kind, 'elicitation');
      assert.equal(summary.outcome?.type, 'error');
      assert.ok(JSON.stringify(summary).length < 4 * KiB, `summary of ${JSON.stringify(summary).length} bytes`);
      assert.match(String(summary.request.message), /^x+…$/);
    }
    const full = await host.call('tasks.get', { taskId });
    assert.equal((full.request.message as string).length, 500 * KiB);
    assert.equal(full.truncated, undefined);
  });

  it('loads a data directory that holds more than the bounds, keeping the newest finished tasks and every open one', async () => {
    const data = tempDir();
    const a = ownerOf('a');
    const b = ownerOf('b');
    const now = Date.now() - 60_000;
    // 40 finished tasks of 100 KiB for A, finished one second apart; written to the documents out
    // of that order (as a compaction writes them), five to a document; two open tasks; three of B.
    const finished = Array.from({ length: 40 }, (_, i) => storedElicitation(a, 100 * KiB, now + i * 1_000, i + 1));
    const shuffled = [...finished].sort((x, y) => (x.task.taskId < y.task.taskId ? -1 : 1));
    const open = [storedElicitation(a, 100 * KiB, now, 41, true), storedElicitation(a, 100 * KiB, now, 42, true)];
    const ofB = [0, 1, 2].map((i) => storedElicitation(b, 1_000, now - 10_000 + i, 43 + i));
    const groups: TaskRecord[][] = [];
    for (let i = 0; i < shuffled.length; i += 5) groups.push(shuffled.slice(i, i + 5));
    groups.splice(3, 0, open, ofB);
    await writeStore(data.dir, groups);

    const policy = { ...relaxed, maxStoredBytesPerServer: 1 * MiB };
    let host = createHost({ dataDir: data.dir, autoConnect: false, policy });
    try {
      const usageA = host.receiver.usage(a.identity);
      assert.ok(usageA.bytes <= 1 * MiB, `holds ${usageA.bytes} bytes`);
      assert.equal(usageA.tasks - usageA.finished, 2, 'both open tasks are kept');
      for (const record of open) assert.equal(host.receiver.record(record.task.taskId)?.task.status, 'working');
      const kept = usageA.finished;
      assert.ok(kept >= 6 && kept <= 8, `kept ${kept}`);
      // The newest finished are the ones kept; the others expired, oldest first, with an audit entry each.
      for (const record of finished.slice(-kept)) assert.ok(host.receiver.record(record.task.taskId));
      for (const record of finished.slice(0, -kept)) assert.equal(host.receiver.record(record.task.taskId), undefined);
      const expired = expiredIds(host, 'a');
      assert.deepEqual(
        new Set(expired.map((entry) => entry.taskId)),
        new Set(finished.slice(0, -kept).map((record) => record.task.taskId))
      );
      for (const entry of expired) assert.match(String(entry.reason), /Expired early/);
      // B is untouched.
      assert.equal(host.receiver.usage(b.identity).finished, 3);
      assert.deepEqual(expiredIds(host, 'b'), []);
      await host.close();

      // The expired ones are gone from disk: the next start loads only what was kept, expiring nothing.
      host = createHost({ dataDir: data.dir, autoConnect: false, policy });
      assert.deepEqual(host.receiver.usage(a.identity), usageA);
      assert.equal(expiredIds(host, 'a').length, expired.length);
    } finally {
      await host.close();
      data.remove();
    }
  });
});
