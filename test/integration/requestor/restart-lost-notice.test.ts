import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { HostEventPayload } from '../../../app/contract/host-api.js';
import { systemClock } from '../../../app/core/clock.js';
import type { Host } from '../../../app/host/host.js';
import { nextEvent, startHostWith, tempDir } from '../../support/host-fixture.js';
import { ClockedTaskStore } from '../../support/requestor-task-store.js';
import { createTaskToolPeer } from '../../support/task-tool-server.js';

type Warning = HostEventPayload<'store.warning'>;

/** Resolves with the first of the host's warnings `which` picks, shown already or to come. */
function warningThat(host: Host, which: (warning: Warning) => boolean): Promise<Warning> {
  return new Promise((resolve) => {
    const off = host.on('store.warning', (warning) => {
      if (!which(warning)) return;
      off();
      resolve(warning);
    });
    const shown = host.warnings.find(which);
    if (shown === undefined) return;
    off();
    resolve(shown);
  });
}

/** Starts a task of `name` on `serverId` that runs for ten minutes; its outbound id. */
async function startTask(host: Host, serverId: string, name: string): Promise<string> {
  const outcome = await host.call('tools.call', { serverId, name, arguments: { durationMs: 600_000 } });
  assert.equal(outcome.type, 'task');
  return outcome.type === 'task' ? outcome.task.outboundId : '';
}

/** Resolves once the host's task `outboundId` is lost. */
function lostTask(host: Host, outboundId: string): Promise<unknown> {
  return nextEvent(
    host,
    'outbound.changed',
    (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.state === 'lost'
  );
}

// Bounded, so that a notice that never comes fails the test rather than holding it.
it(
  'after a restart, one notice says which tasks a server started again no longer had',
  { timeout: 20_000 },
  async () => {
    const data = tempDir();
    // Both servers are started by Taskdesk (stdio, in memory here): "tools" forgets its tasks with
    // its process; "keeper" stores them (one store outlives its process).
    const kept = new ClockedTaskStore({ clock: systemClock, pollInterval: 200 });
    const peers = () => ({
      tools: createTaskToolPeer({ clock: systemClock, pollInterval: 200 }).peer,
      keeper: createTaskToolPeer({ clock: systemClock, store: kept }).peer
    });
    const first = await startHostWith(peers(), { dir: data.dir });
    let second: Awaited<ReturnType<typeof startHostWith>> | undefined;
    try {
      const lostIds = [
        await startTask(first.host, 'tools', 'work-required'),
        await startTask(first.host, 'tools', 'slow'),
        await startTask(first.host, 'tools', 'work-required')
      ];
      const keptId = await startTask(first.host, 'keeper', 'work-required');
      await first.stop();

      second = await startHostWith(peers(), { dir: data.dir });
      const host = second.host;
      const notice = warningThat(host, (warning) => warning.message.includes('Server tools'));
      for (const outboundId of lostIds)
        if ((await host.call('outbound.get', { outboundId })).state !== 'lost') await lostTask(host, outboundId);
      const said = await notice;
      assert.equal(
        said.message,
        '3 tasks on Server tools were lost (of work-required and slow): Server tools was started again since they ' +
          'were created, and kept no tasks from before. Tasks shows them as Lost.'
      );
      assert.deepEqual(said.links, [{ label: 'Open the Tasks screen', href: '#tasks' }]);
      // In the words each task's row gives.
      const task = await host.call('outbound.get', { outboundId: lostIds[0]! });
      assert.match(
        task.reason ?? '',
        /^Server tools no longer has this task: it was started again since the task was created, and kept no tasks from before\./
      );

      // The server that kept its task is asked about it, and not said to have lost anything.
      await host.call('outbound.refresh', { outboundId: keptId });
      assert.equal((await host.call('outbound.get', { outboundId: keptId })).state, 'working');
      // Said once: one notice for the server, not one per task.
      assert.deepEqual(
        host.warnings.filter((warning) => / were lost | was lost: /.test(warning.message)).map((w) => w.message),
        [said.message]
      );
    } finally {
      await (second ?? first).dispose();
      data.remove();
    }
  }
);
