import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutboundTaskView } from '../../../app/contract/host-api.js';
import { serverMayGiveUp } from '../../../app/contract/server-gives-up.js';
import { relatedTaskOf, tasksByServerTask } from '../../../renderer/inbox/server-gives-up.js';

/** The tool-call task Taskdesk requested of server `a`, as the Desk keeps it (only what the lookup reads). */
function outbound(protocol?: '2026-07-28'): Record<string, OutboundTaskView> {
  const task = { outboundId: 'o1', serverId: 'a', taskId: 'server-task', ...(protocol && { protocol }) };
  return { o1: task as OutboundTaskView };
}

describe('serverMayGiveUp: whose server may stop waiting for the answer', () => {
  it('an ordinary request, with no task', () => {
    assert.equal(serverMayGiveUp({}, undefined), true);
  });

  it('a legacy server’s question for its task: related-task `_meta`, but an ordinary request', () => {
    const item = { serverId: 'a', relatedTaskId: 'server-task' };
    const related = relatedTaskOf(item, outbound());
    assert.equal(related?.outboundId, 'o1');
    assert.equal(serverMayGiveUp(item, related), true);
    // A task the Desk does not know: the request is still an ordinary one.
    assert.equal(
      serverMayGiveUp(
        { relatedTaskId: 'unknown' },
        relatedTaskOf({ serverId: 'a', relatedTaskId: 'unknown' }, outbound())
      ),
      true
    );
  });

  it('not a task-augmented request: Taskdesk’s own task, which the server polls', () => {
    assert.equal(serverMayGiveUp({ taskId: 't1', expiresAt: '2026-12-04T17:00:00.000Z' }, undefined), false);
    assert.equal(
      serverMayGiveUp(
        { taskId: 't1', relatedTaskId: 'server-task' },
        relatedTaskOf({ serverId: 'a', relatedTaskId: 'server-task' }, outbound())
      ),
      false
    );
  });

  it('not a 2026-07-28 task’s input request, nor a multi round-trip request’s question: Taskdesk holds those', () => {
    const input = { serverId: 'a', relatedTaskId: 'server-task' };
    assert.equal(serverMayGiveUp(input, relatedTaskOf(input, outbound('2026-07-28'))), false);
    const exchange = { serverId: 'a', relatedTaskId: 'server-task', relatedCall: true as const };
    assert.equal(relatedTaskOf(exchange, outbound()), undefined);
    assert.equal(serverMayGiveUp(exchange, undefined), false);
  });

  it('finds the related task by its server and its id, in the state the card reads', () => {
    const tasks = outbound();
    const item = { serverId: 'a', relatedTaskId: 'server-task' };
    assert.equal(relatedTaskOf(item, tasks), tasks.o1);
    // Indexed once for each state, whichever cards look their task up in it.
    assert.equal(tasksByServerTask(tasks), tasksByServerTask(tasks));
    // Another server's task of the same id is not it.
    assert.equal(relatedTaskOf({ serverId: 'b', relatedTaskId: 'server-task' }, tasks), undefined);
    // The store replaces `outbound` as a task changes or goes: the lookup follows it.
    const changed = { o1: { ...tasks.o1, protocol: '2026-07-28' } as OutboundTaskView };
    assert.equal(relatedTaskOf(item, changed), changed.o1);
    assert.equal(relatedTaskOf(item, {}), undefined);
    assert.equal(relatedTaskOf(item, tasks), tasks.o1);
  });
});
