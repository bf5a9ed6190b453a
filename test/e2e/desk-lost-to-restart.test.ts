import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../app/core/clock.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { restartFixture } from './restart-fixture.js';

/**
 * A server Taskdesk starts itself (stdio; the fixture's in-memory servers are configured so) is
 * started again with Taskdesk and keeps no tasks from before: once it answers for them, the
 * Desk's notices say which tasks it lost, once for the server, and send the person to Tasks.
 */
describe('the notice of tasks lost to a restart, in headless Chromium against the real core', () => {
  const restart = restartFixture();
  const { pageErrors } = restart;

  before(() => restart.build());
  after(() => restart.close());

  it('says which tasks the server started again no longer has, and its link opens Tasks, where they are Lost', async () => {
    const before = await restart.host({ work: createTaskToolPeer({ clock: systemClock }).peer });
    const started = await Promise.all(
      ['work-required', 'slow'].map((name) =>
        before.host.call('tools.call', { serverId: 'work', name, arguments: { durationMs: 600_000 } })
      )
    );
    await before.stop();

    // Taskdesk starts again, and the server with it: a new process, with none of its tasks.
    const fixture = await restart.host({ work: createTaskToolPeer({ clock: systemClock }).peer });
    const page = await restart.open(fixture);
    const notice = page.locator('.banners .host-warning[role="alert"]').filter({ hasText: 'were lost' });
    await notice.waitFor();
    assert.equal(
      await notice.locator('p').first().textContent(),
      '2 tasks on Server work were lost (of work-required and slow): Server work was started again since they ' +
        'were created, and kept no tasks from before. Tasks shows them as Lost.'
    );
    assert.equal(await page.locator('.banners .host-warning').count(), 1, 'one notice, not one per task');

    await notice.getByRole('link', { name: 'Open the Tasks screen' }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    for (const outcome of started) {
      assert.equal(outcome.type, 'task');
      const key = outcome.type === 'task' ? `requested:${outcome.task.outboundId}` : '';
      assert.equal(await tasks.locator(`tr[data-task-key="${key}"] [data-status="lost"]`).textContent(), 'Lost');
    }
    assert.deepEqual(pageErrors, []);
  });
});
