import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * A 2025-11-25 server asks its question for a tool task of Taskdesk's as an ordinary request
 * (related-task `_meta`, no task of its own): its SDK gives up on it after its request timeout, as
 * on any other. Both the Inbox card and the task's detail on the Tasks screen say so.
 */
describe('a server’s question for its task, which the server may stop waiting for', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ work }, { viewport: { width: 1200, height: 1400 } });
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  it('says on its Inbox card and beside the task’s link to it that servers often stop waiting after about a minute', async () => {
    const { page } = d;
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    const added = nextEvent(d.fixture.host, 'inbox.added', ({ item }) => item.relatedTaskId === call.task.taskId);
    const asked = work.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Which depot, for the slow call?',
            requestedSchema: { type: 'object', properties: { depot: { type: 'string' } } },
            _meta: { [RELATED_TASK_META_KEY]: { taskId: call.task.taskId } }
          }
        },
        ElicitResultSchema
      )
      .catch((error: unknown) => error);
    await added;

    await page.locator('nav').getByRole('link', { name: 'Inbox 1 waiting', exact: true }).click();
    const card = page.getByRole('article', { name: 'Which depot, for the slow call?' });
    await card.waitFor();
    assert.match((await card.locator('.meta').textContent()) ?? '', / · the server’s task \S+ waits on it · /);
    assert.equal(
      await card.locator('.wait-note').textContent(),
      'Servers often stop waiting after about a minute (the MCP SDK’s default timeout).'
    );

    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks
      .locator(`tr[data-task-key="requested:${call.task.outboundId}"]`)
      .getByRole('button', { name: /^Details of / })
      .click();
    const link = tasks.locator('.task-detail').getByRole('link', { name: 'Answer its server’s question in the Inbox' });
    await link.waitFor();
    assert.equal(
      await link.locator('xpath=..').textContent(),
      'Answer its server’s question in the Inbox (servers often stop waiting after about a minute)'
    );

    await link.click();
    await card.getByRole('button', { name: 'Decline' }).click();
    assert.equal(((await asked) as { action?: string }).action, 'decline');
    await d.fixture.host.call('outbound.cancel', { outboundId: call.task.outboundId });
    assert.deepEqual(d.pageErrors, []);
  });
});
