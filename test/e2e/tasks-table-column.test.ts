import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import { systemClock } from '../../app/core/clock.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

const TOOL = 'summarise-regional-quarterly-open-orders-and-returns';
const RESULT =
  'The quarterly summary of open orders and returns for every regional office, with the figures of each week. '.repeat(
    5
  );
const QUESTION =
  'Which of the regional offices should the quarterly summary of open orders and returns be sent to, and by which day of next week?';

/** A server with one task tool whose name, arguments and result all run long. */
function longServer(store: ClockedTaskStore): PeerServer {
  const server = new McpServer(
    { name: 'long', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } }, taskStore: store }
  );
  server.experimental.tasks.registerToolTask(
    TOOL,
    { inputSchema: { topic: z.string() }, execution: { taskSupport: 'required' } },
    {
      createTask: async (_args, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 600_000 });
        await store.storeTaskResult(task.taskId, 'completed', {
          content: [{ type: 'text', text: RESULT }]
        } satisfies CallToolResult);
        return { task };
      },
      getTask: async (_args, extra) => (await store.getTask(extra.taskId))!,
      getTaskResult: async (_args, extra) => (await store.getTaskResult(extra.taskId)) as CallToolResult
    }
  );
  return { server: server.server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

/**
 * The Tasks table keeps to the screen's column (its heading, words and filters) at 1280 × 800,
 * as at 800 px, with long titles, arguments, server names and results: nothing runs past the
 * column's edges, nothing scrolls sideways, and a long cell is cut with its whole text kept.
 */
describe('the Tasks table within its column, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk(
      { 'long-running-regional-reports-server': longServer(store), asker },
      { viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  it('fits the column at 1280 × 800 and at 800 px, long cells cut with their whole text kept', async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'long-running-regional-reports-server',
      name: TOOL,
      arguments: { topic: 'open orders and returns of the northern, southern, eastern and western offices' }
    });
    assert.equal(call.type, 'task');
    await asker.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: QUESTION,
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.locator('td.outcome', { hasText: 'quarterly summary' }).waitFor();
    await tasks.locator('td.task-cell', { hasText: 'Which of the regional offices' }).waitFor();

    for (const [width, height] of [
      [1280, 800],
      [800, 800]
    ] as const) {
      await page.setViewportSize({ width, height });
      const seen = await tasks.evaluate((screen) => {
        const column = screen.getBoundingClientRect();
        const wrap = screen.querySelector('.table-wrap')!;
        const frame = wrap.getBoundingClientRect();
        return {
          column: { left: column.left, right: column.right },
          filters: screen.querySelector('[role="search"]')!.getBoundingClientRect().right,
          wrap: { left: frame.left, right: frame.right },
          table: wrap.querySelector('table')!.getBoundingClientRect().right,
          sideways: wrap.scrollWidth - wrap.clientWidth,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth
        };
      });
      const at = `at ${width} × ${height}`;
      assert.ok(
        seen.wrap.right <= seen.column.right + 0.5,
        `${at}: the table runs to ${seen.wrap.right} px, past its column's right edge at ${seen.column.right} px`
      );
      assert.ok(
        seen.wrap.left >= seen.column.left - 0.5,
        `${at}: the table starts at ${seen.wrap.left} px, left of its column at ${seen.column.left} px`
      );
      assert.ok(seen.wrap.right <= seen.filters + 0.5, `${at}: the table ends right of the filters above it`);
      assert.ok(seen.table <= seen.wrap.right + 0.5, `${at}: the table runs past its frame`);
      assert.ok(seen.sideways <= 0, `${at}: the table scrolls ${seen.sideways} px sideways in its frame`);
      assert.equal(seen.page, 0, `${at}: the page scrolls sideways`);
      // Its long cells are cut (two lines of title and arguments, three of result), never the
      // row's actions: Details is in sight, and the whole text is a hover or a Details away.
      const details = tasks.getByRole('button', { name: /^Details of / }).first();
      const button = await details.boundingBox();
      assert.ok(button && button.x + button.width <= seen.column.right + 0.5, `${at}: Details is cut off`);
      const preview = tasks.locator('code.task-preview');
      assert.match((await preview.getAttribute('title')) ?? '', /western offices/, `${at}: the arguments' tooltip`);
      const cut = await tasks
        .locator('.task-title, .outcome-text')
        .evaluateAll((elements) => elements.map((element) => element.scrollHeight > element.clientHeight + 1));
      assert.ok(cut.some(Boolean), `${at}: the long cells are cut to their lines`);
    }
    assert.deepEqual(d.pageErrors, []);
  });
});
