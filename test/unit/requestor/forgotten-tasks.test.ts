import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ForgottenTasks } from '../../../app/requestor/forgotten-tasks.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import type { ModernPeer } from '../../../app/requestor/modern-task-follower.js';
import { tempTaskDir } from '../../support/requestor-harness.js';

/**
 * The tasks the person forgot, remembered per server so that a question a server asks later for
 * one of them is answered at once: bounded by count, by the task's ttl, and by the connection.
 */

let clock: ManualClock;
let temp: ReturnType<typeof tempTaskDir>;

// In a describe: with the unit tests in one process, a file's top-level hooks would run around every file's tests.
describe('the tasks the person forgot', () => {
  beforeEach(() => {
    clock = new ManualClock();
    temp = tempTaskDir();
  });
  afterEach(() => temp.cleanup());

  const inAMinute = () => new Date(clock.now() + 60_000).toISOString();

  test('a forgotten task is remembered for its server until its ttl runs out', async () => {
    const forgotten = new ForgottenTasks(clock);
    forgotten.remember({ serverId: 'a', taskId: 't-1', toolName: 'slow', expiresAt: inAMinute() });
    forgotten.remember({ serverId: 'a', taskId: 't-2', toolName: 'forever', expiresAt: null });
    assert.deepEqual(forgotten.find('a', 't-1'), { toolName: 'slow' });
    assert.equal(forgotten.find('b', 't-1'), undefined, 'another server’s task of that id is another task');
    await clock.advance(60_000);
    assert.equal(forgotten.find('a', 't-1'), undefined, 'its server no longer keeps it, nor asks for it');
    assert.deepEqual(forgotten.find('a', 't-2'), { toolName: 'forever' }, 'a task without a ttl stays');
  });

  test('each server keeps only the most recently forgotten', () => {
    const forgotten = new ForgottenTasks(clock, 3);
    for (const n of [1, 2, 3, 4])
      forgotten.remember({ serverId: 'a', taskId: `t-${n}`, toolName: 'slow', expiresAt: null });
    forgotten.remember({ serverId: 'b', taskId: 't-1', toolName: 'other', expiresAt: null });
    assert.deepEqual(
      ['t-1', 't-2', 't-3', 't-4'].map((id) => forgotten.find('a', id)?.toolName),
      [undefined, 'slow', 'slow', 'slow']
    );
    assert.deepEqual(forgotten.find('b', 't-1'), { toolName: 'other' });
  });

  test('the requestor remembers a task it forgets until that server’s connection ends, and forgets that memory when the id is followed again', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    let taskId = 't-1';
    const peer: ModernPeer = {
      acceptsTasks: true,
      async request(method) {
        const now = new Date(clock.now()).toISOString();
        const task = { taskId, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 600_000 };
        switch (method) {
          case 'tools/list':
            return { tools: [{ name: 'job', inputSchema: { type: 'object' } }] };
          case 'tools/call':
            return { resultType: 'task', ...task };
          case 'tasks/get':
            return task;
          default:
            return {};
        }
      },
      answerInput: async () => ({ action: 'cancel' })
    };
    const attach = () => manager.attach('srv', 'Modern', new Client({ name: 't', version: '0' }), { modern: peer });
    const call = async () => {
      const outcome = await manager.callTool('srv', 'job', {});
      return outcome.type === 'task' ? outcome.task : assert.fail('not a task');
    };
    attach();
    const first = await call();
    assert.equal(manager.forgotten('srv', 't-1'), undefined, 'followed, not forgotten');
    manager.forget(first.outboundId);
    assert.deepEqual(manager.forgotten('srv', 't-1'), { toolName: 'job' });

    // The server gives the id out again (a counter after a restart): the new task is the one it means.
    const again = await call();
    assert.equal(again.taskId, 't-1');
    assert.equal(manager.forgotten('srv', 't-1'), undefined);
    manager.forget(again.outboundId);

    // A new connection may be a restarted server, whose task ids are not the old ones.
    manager.detach('srv');
    assert.equal(manager.forgotten('srv', 't-1'), undefined);

    // Forgotten while the server is away: remembered through its next connection.
    attach();
    taskId = 't-2';
    const third = await call();
    manager.detach('srv');
    manager.forget(third.outboundId);
    attach();
    assert.deepEqual(manager.forgotten('srv', 't-2'), { toolName: 'job' });
    manager.detach('srv');
    assert.equal(manager.forgotten('srv', 't-2'), undefined);
    manager.close();
  });
});
