import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateTaskResultSchema, ElicitResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { systemClock } from '../../app/core/clock.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { accessibleDescription, actionsOutOfSight, edgeGaps, root } from './renderer-build.js';

/** How much wider a field's placeholder is than the room inside the field (≤ 0: it fits). */
function placeholderOverflow(input: Locator): Promise<number> {
  return input.evaluate((field: HTMLInputElement) => {
    const style = getComputedStyle(field);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(field.placeholder).width - room;
  });
}

describe('a fresh Desk as a newcomer sees it: empty screens say so, fields read as fields', () => {
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({}, { viewport: { width: 1280, height: 800 } });
    page = d.page;
  });

  after(async () => {
    await d?.close();
  });

  it('types in normal weight inside bold labels, and shows each filter bar’s search placeholder whole', async () => {
    for (const [screen, name] of [
      ['Tasks', 'Tasks'],
      ['History', 'History'],
      ['Audit log', 'Audit log']
    ] as const) {
      await page.getByRole('link', { name: screen, exact: true }).click();
      const search = page.getByRole('search', { name }).getByLabel('Search');
      await search.waitFor();
      assert.equal(
        await search.evaluate((field) => getComputedStyle(field).fontWeight),
        '400',
        `${screen}: typed text`
      );
      const overflow = await placeholderOverflow(search);
      assert.ok(overflow <= 0, `${screen}: the placeholder runs ${Math.round(overflow)}px past the field`);
    }
  });

  it('says that History, the audit log and Tools are empty, rather than “0 entries” or an empty table', async () => {
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await page.getByText('Nothing yet: a task comes here once a server gives Taskdesk one').waitFor();
    // With no entry at all, a filter set changes nothing of that, as on Tasks (not "0 of 0 entries match").
    const listed = page.waitForResponse(
      (response) => response.url().endsWith('/api/call') && (response.request().postData() ?? '').includes('"refund"')
    );
    await page.getByRole('search', { name: 'History' }).getByLabel('Search').fill('refund');
    await listed;
    await page.getByRole('button', { name: 'Clear filters' }).waitFor();
    await page.getByText('Nothing yet: a task comes here once a server gives Taskdesk one').waitFor();
    await page.getByRole('search', { name: 'History' }).getByLabel('Search').fill('');

    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByText('Nothing recorded yet.').waitFor();
    assert.equal(await page.getByRole('table', { name: 'Audit log entries' }).isVisible(), false);

    // The Tools screen without a server says where to add one, with the way there.
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByText('No server is configured: add one on the Servers screen.').waitFor();
    await tools.getByRole('status').getByRole('link', { name: 'Servers' }).click();
    assert.equal(await page.evaluate(() => location.hash), '#servers');
  });

  it('levels the labels and the boxes of fields side by side, whichever has a hint or an error, and pads a card evenly', async () => {
    await page.getByRole('link', { name: 'LLM providers', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add a provider' });
    const pairs = [
      [
        form.getByRole('textbox', { name: 'Id', exact: true }),
        form.getByRole('textbox', { name: 'Name', exact: true })
      ],
      [form.getByLabel('Default model'), form.getByLabel('Token limit field')]
    ] as const;
    /** The tops of a field's label and of its box. */
    const tops = (field: Locator) =>
      field.evaluate((box) => ({
        label: document.querySelector(`label[for="${box.id}"]`)!.getBoundingClientRect().top,
        box: box.getBoundingClientRect().top
      }));
    const levelled = async (when: string) => {
      for (const [left, right] of pairs) {
        const [a, b] = [await tops(left), await tops(right)];
        const names = `${await left.getAttribute('name')} and ${await right.getAttribute('name')}`;
        assert.ok(Math.abs(a.label - b.label) <= 1, `${when}: labels of ${names} at ${a.label} and ${b.label}`);
        assert.ok(Math.abs(a.box - b.box) <= 1, `${when}: boxes of ${names} at ${a.box} and ${b.box}`);
      }
    };
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await levelled(`at ${width}`);
    }
    // Only the Id says what it needs: its box stays level with Name's. (The Id filled in from the Name is emptied.)
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Somewhere');
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('');
    await form.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await form.getByText('One field needs correcting.').waitFor();
    await levelled('with an error on Id only');
    const gaps = await edgeGaps(page.getByRole('region', { name: 'Local servers' }));
    assert.ok(Math.abs(gaps.top - gaps.bottom) <= 1, `the Local servers card's room: ${JSON.stringify(gaps)}`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('puts the retention heading above its fields, and says “Saved.” once they are kept', async () => {
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const retention = page.getByRole('form', { name: 'Retention' });
    const days = retention.getByLabel('Days');
    await days.and(page.locator('[value="30"]')).waitFor();
    const heading = await retention.getByRole('heading', { name: 'Keep history' }).boundingBox();
    const label = await retention.locator('label').first().boundingBox();
    assert.ok(heading && label && heading.y + heading.height <= label.y, 'the heading is above the first label');
    assert.equal(await days.evaluate((field) => getComputedStyle(field).fontWeight), '400');

    // Both fields out of range: both said at once, each under its field, the focus on the first.
    const entries = retention.getByLabel('At most entries');
    await days.fill('-3');
    await entries.fill('5');
    await retention.getByRole('button', { name: 'Save' }).click();
    await retention.getByText('2 fields need correcting.').waitFor();
    assert.deepEqual(
      [await days.getAttribute('aria-invalid'), await entries.getAttribute('aria-invalid')],
      ['true', 'true']
    );
    assert.equal(await accessibleDescription(days), 'A whole number from 1 to 3,650');
    assert.equal(await accessibleDescription(entries), 'A whole number from 100 to 100,000');
    assert.ok(await days.evaluate((field) => field === document.activeElement), 'the focus on Days');
    // The boxes stay level, and Save beside them, whichever field shows an error.
    await days.fill('14');
    await entries.fill('5');
    await retention.getByRole('button', { name: 'Save' }).click();
    await retention.getByText('One field needs correcting.').waitFor();
    assert.equal(await days.getAttribute('aria-invalid'), null);
    assert.ok(await entries.evaluate((field) => field === document.activeElement), 'the focus on At most entries');
    const [daysBox, entriesBox, saveBox] = await Promise.all(
      [days, entries, retention.getByRole('button', { name: 'Save' })].map((box) => box.boundingBox())
    );
    assert.ok(daysBox && entriesBox && saveBox, 'all three shown');
    assert.equal(Math.round(daysBox.y + daysBox.height), Math.round(entriesBox.y + entriesBox.height), 'boxes level');
    assert.ok(Math.abs(saveBox.y + saveBox.height - (daysBox.y + daysBox.height)) <= 2, 'Save level with the boxes');
    await entries.fill('20000');

    await days.fill('14');
    await retention.getByRole('button', { name: 'Save' }).click();
    await retention.getByText('Saved.').waitFor();
    assert.deepEqual(await d.fixture.host.call('history.getRetention', {}), { days: 14, maxEntries: 20000 });
    await days.fill('15');
    await retention.getByText('Saved.').waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });
});

/** The opening of server-everything's research report: Markdown that a Tasks row reads as words. */
const REPORT =
  '# Research Report: tides\n\n## Research Parameters\n- **Topic**: tides\n\n## Synthesis\nThis research query was processed through 4 stages';

/** A server with one task tool named as server-everything's is, whose task ends at once with {@link REPORT}. */
function researchServer(store: ClockedTaskStore): PeerServer {
  const server = new McpServer(
    { name: 'research', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } }, taskStore: store }
  );
  server.experimental.tasks.registerToolTask(
    'simulate-research-query',
    { inputSchema: { topic: z.string() }, execution: { taskSupport: 'required' } },
    {
      createTask: async (_args, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 600_000 });
        await store.storeTaskResult(task.taskId, 'completed', {
          content: [{ type: 'text', text: REPORT }]
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
 * The words in `cells` that lie on more than one line: a word cut in the middle. A word here
 * runs to a space, or to a hyphen (where an identifier such as a tool's name may end a line).
 */
function cutWords(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((elements) => {
    const cut: string[] = [];
    for (const element of elements) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(/[^\s-]+-?/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(
            Array.from(range.getClientRects())
              .filter((rect) => rect.width > 0)
              .map((rect) => Math.round(rect.top))
          );
          if (lines.size > 1) cut.push(match[0]);
        }
      }
    }
    return cut;
  });
}

describe('the Desk in a narrow window (800 px) and with long text', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const desk = peerServer('desk');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({ research: researchServer(store), desk }, { viewport: { width: 800, height: 900 } });
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  it('cuts no word in a Tasks row (“Researc/h Report”), keeps a tool’s name to two lines and Details in sight, and needs no sideways scrolling at 1280 px', async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'research',
      name: 'simulate-research-query',
      arguments: { topic: 'tides' }
    });
    assert.equal(call.type, 'task');
    const asked = await desk.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which of the regional offices should the quarterly summary of open orders be sent to?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const requested = tasks.locator(
      `tr[data-task-key="requested:${call.type === 'task' ? call.task.outboundId : ''}"]`
    );
    await requested.locator('td.outcome', { hasText: 'Research Report' }).waitFor();
    await tasks.locator(`tr[data-task-key="received:${asked.task.taskId}"]`).waitFor();
    const wrap = tasks.locator('.table-wrap');
    // The question waits on the person: its badge says so on one line at every width ("Waiting /
    // for you" on two at 800 px), its column growing for it.
    const waiting = tasks.locator(`tr[data-task-key="received:${asked.task.taskId}"]`);
    await waiting.locator('.status', { hasText: 'Waiting for you' }).waitFor();

    // 1000 px: eight columns there scrolled sideways, so the narrow table's five are kept up to 1100.
    for (const width of [800, 1000, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      assert.deepEqual(await textLines(waiting.locator('.status')), [1], `at ${width}: the badge on one line`);
      assert.deepEqual(await cutWords(tasks.locator('table.tasks td')), [], `at ${width}: words cut across lines`);
      // In its Kind column, or at 800 px under the task's title (the column is left out there).
      const toolName = requested.locator('td code:visible', { hasText: 'simulate-research-query' });
      const lines = await toolName.evaluate((code) => code.getClientRects().length);
      assert.ok(lines <= 2, `at ${width}: the tool's name on ${lines} lines`);
      const dateLines = await tasks
        .locator('table.tasks td.when time')
        .evaluateAll((times) => times.map((time) => time.getClientRects().length));
      assert.ok(dateLines.length >= 2, 'the rows show their dates');
      assert.ok(
        dateLines.every((n) => n <= 2),
        `at ${width}: dates on ${dateLines.join(', ')} lines`
      );
      assert.deepEqual(await actionsOutOfSight(wrap), [], `at ${width}: buttons out of sight, to scroll sideways to`);
    }
    const widths = await wrap.evaluate((element) => [element.scrollWidth, element.clientWidth]);
    assert.ok(widths[0]! <= widths[1]!, `at 1280: the table (${widths[0]} px) is wider than its box (${widths[1]} px)`);
    // The question's title is given the room the short columns leave (it had 135 px, cut after three words).
    const titleWidth = await waiting.locator('td.task-cell').evaluate((cell) => cell.getBoundingClientRect().width);
    assert.ok(titleWidth >= 256, `at 1280: the title's column is ${titleWidth} px wide`);
    // A table that fits is no region and no stop in the tab order.
    assert.deepEqual(await frameState(wrap), { role: null, tabIndex: -1, left: false, right: false });
    await page.setViewportSize({ width: 640, height: 900 });
    // At 640 px the table scrolls sideways: a shadow says so, and the keyboard can scroll it.
    const narrow = page.getByRole('region', { name: 'Tasks table' });
    await narrow.and(page.locator('[data-more-right]')).waitFor();
    assert.deepEqual(await frameState(wrap), { role: 'region', tabIndex: 0, left: false, right: true });
    await narrow.focus();
    await page.keyboard.press('ArrowRight');
    await narrow.and(page.locator('[data-more-left]')).waitFor();
    assert.ok((await wrap.evaluate((element) => element.scrollLeft)) > 0, 'the arrow key scrolled the table');
    await page.keyboard.press('ArrowLeft');
    await narrow.and(page.locator('[data-more-right]:not([data-more-left])')).waitFor();
    await page.setViewportSize({ width: 800, height: 900 });
    assert.deepEqual(d.pageErrors, []);
  });

  it('gives the Tasks table more of a wide window (1920 px): a row’s dates on one line, the words above it in shorter lines', async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'research',
      name: 'simulate-research-query',
      arguments: { topic: 'currents' }
    });
    assert.equal(call.type, 'task');
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks
      .locator(`tr[data-task-key="requested:${call.type === 'task' ? call.task.outboundId : ''}"] td.outcome`, {
        hasText: 'Research Report'
      })
      .waitFor();
    await page.setViewportSize({ width: 1920, height: 1080 });
    try {
      const wrap = tasks.locator('.table-wrap');
      const [table, lede] = await Promise.all([wrap.boundingBox(), tasks.locator('.lede').boundingBox()]);
      assert.ok(table && table.width >= 1400, `the table is ${table?.width} px wide in a 1920 px window`);
      assert.ok(table.x >= 0 && table.x + table.width <= 1920, `the table runs from ${table.x} px`);
      assert.ok(lede && lede.width <= 1100, `the screen’s words run ${lede?.width} px wide`);
      const widths = await wrap.evaluate((element) => [element.scrollWidth, element.clientWidth]);
      assert.ok(widths[0]! <= widths[1]!, `the table (${widths[0]} px) is wider than its box (${widths[1]} px)`);
      // Lines of text of each date, and of each date cell (Created, Kept): "Was kept until Dec 4,
      // 2026, 4:15:50 PM" took three.
      const times = await textLines(tasks.locator('table.tasks td.when time'));
      assert.ok(times.length >= 1, 'the rows show their dates');
      assert.ok(
        times.every((n) => n === 1),
        `dates on ${times.join(', ')} lines`
      );
      const cells = await textLines(tasks.locator('table.tasks td.when'));
      assert.ok(
        cells.every((n) => n <= 2),
        `date cells on ${cells.join(', ')} lines`
      );
    } finally {
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps the brand and every section on one row at 800 px, a badge on Inbox included', async () => {
    // Questions earlier tests left waiting (a task's) stay; this test answers its own.
    const before = new Set((await d.fixture.host.call('inbox.list', {})).map((item) => item.id));
    const asked = desk.server
      .request(
        {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'A badge, please', requestedSchema: { type: 'object', properties: {} } }
        },
        ElicitResultSchema
      )
      .catch(() => undefined);
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .locator('.badge:not([hidden])')
      .waitFor();
    try {
      await page.setViewportSize({ width: 800, height: 600 });
      const bar = await page.locator('.topbar').evaluate((topbar) => {
        const links = Array.from(topbar.querySelectorAll('nav a')).map((a) => a.getBoundingClientRect());
        return {
          height: topbar.getBoundingClientRect().height,
          tops: new Set(links.map((rect) => Math.round(rect.top))).size,
          right: Math.max(...links.map((rect) => rect.right))
        };
      });
      // Two rows took 77 px of the 600.
      assert.ok(bar.height < 50, `the bar is ${bar.height} px tall`);
      assert.equal(bar.tops, 1, 'the sections on one row');
      assert.ok(bar.right <= 800, `a section ends at ${bar.right} px`);
      // The badge takes no room in the row: with it and without it (taken out for the measure and
      // put back at once, before anything renders) every tab is where it was. It covers no tab's
      // label, its own included, and the tab is still named with its count.
      const inbox = page.locator('nav').getByRole('link', { name: /^Inbox \d+ waiting$/ });
      for (const [width, height] of [
        [800, 600],
        [1280, 800]
      ] as const) {
        await page.setViewportSize({ width, height });
        // Clear of the window's top edge, which cut off the top of its round (it touched it, at 0).
        const top = await inbox.locator('.badge').evaluate((count) => count.getBoundingClientRect().top);
        assert.ok(top >= 2, `at ${width}: the badge's top is ${top} px from the window's`);
        // No function declared inside the page function: tsx would name it with a helper the page lacks.
        // A count of two or three digits (a busy day) as well as the one waiting now.
        for (const digits of [undefined, '29', '100']) {
          const { shown, gone, badge, labels } = await inbox.evaluate((link, digits) => {
            const links = Array.from(link.closest('ul')!.querySelectorAll('a'));
            const count = link.querySelector<HTMLElement>('.badge')!;
            const was = count.textContent;
            if (digits !== undefined) count.textContent = digits;
            const tabs: number[][][] = [];
            for (const display of ['', 'none']) {
              count.style.display = display;
              tabs.push(
                links.map((a) => {
                  const box = a.getBoundingClientRect();
                  return [box.left, box.right, box.top, box.bottom];
                })
              );
            }
            count.style.display = '';
            const range = document.createRange();
            const measured = {
              shown: tabs[0],
              gone: tabs[1],
              badge: count.getBoundingClientRect().toJSON() as DOMRect,
              labels: links.map((a) => {
                range.selectNodeContents(a.firstChild!);
                return range.getBoundingClientRect().toJSON() as DOMRect;
              })
            };
            count.textContent = was;
            return measured;
          }, digits);
          assert.deepEqual(gone, shown, `at ${width}: the tabs with the Inbox's badge and without it`);
          for (const [i, label] of labels.entries()) {
            const apart =
              badge.right <= label.left ||
              badge.left >= label.right ||
              badge.bottom <= label.top ||
              badge.top >= label.bottom;
            assert.ok(
              apart,
              `at ${width}, count ${digits ?? 'as it is'}: the badge ${JSON.stringify(badge)} over tab ${i}'s label ${JSON.stringify(label)}`
            );
          }
        }
      }
      // To look at: a busy day's count at 800 px.
      await page.setViewportSize({ width: 800, height: 600 });
      await inbox.locator('.badge').evaluate((count) => (count.textContent = '29'));
      await page.locator('.topbar').screenshot({ path: path.join(root, '.tmp/desk-layout-badge-800.png') });
    } finally {
      await page.setViewportSize({ width: 800, height: 900 });
      const item = (await d.fixture.host.call('inbox.list', {})).find(
        (i) => i.serverId === 'desk' && !before.has(i.id)
      );
      if (item) await d.fixture.host.call('inbox.answer', { id: item.id, answer: { action: 'cancel' } });
      await asked;
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('marks a detail’s heading the focus is put on by underlining its words, with no box round it like a field’s, at 800 × 600 and 1280 × 800', async () => {
    const sections = page.locator('nav');
    // How the heading shows the focus: no outline, its words underlined; as the keyboard's focus.
    const mark = (heading: Locator) =>
      heading.evaluate((element) => {
        const style = getComputedStyle(element);
        return {
          focused: element === document.activeElement && element.matches(':focus-visible'),
          outline: style.outlineStyle,
          underline: style.textDecorationLine.includes('underline')
        };
      });
    try {
      for (const [width, height] of [
        [800, 600],
        [1280, 800]
      ] as const) {
        await page.setViewportSize({ width, height });
        // By the keyboard, as a person who follows the focus ring does: Enter on a row's Details.
        await sections.getByRole('link', { name: 'Tasks', exact: true }).click();
        const tasks = page.getByRole('region', { name: 'Tasks' });
        await tasks
          .getByRole('button', { name: /^Details of / })
          .first()
          .focus();
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.id === 'task-detail-title');
        const taskHeading = tasks.locator('#task-detail-title');
        assert.deepEqual(
          await mark(taskHeading),
          { focused: true, outline: 'none', underline: true },
          `Tasks at ${width}`
        );
        await page.keyboard.press('Escape');
        await taskHeading.waitFor({ state: 'detached' });

        await sections.getByRole('link', { name: 'History', exact: true }).click();
        const history = page.getByRole('region', { name: 'History' });
        await history.locator('.history-list .history-title').first().focus();
        await page.keyboard.press('Enter');
        await page.waitForFunction(() => document.activeElement?.id === 'history-detail-title');
        const entryHeading = history.locator('#history-detail-title');
        assert.deepEqual(
          await mark(entryHeading),
          { focused: true, outline: 'none', underline: true },
          `History at ${width}`
        );
        await page.keyboard.press('Escape');
        await entryHeading.waitFor({ state: 'detached' });
      }
    } finally {
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows a server’s whole name with “(not connected)” in the Tools screen’s Server choice, at 1280 px and at 800 px', async () => {
    await d.fixture.host.call('servers.add', {
      id: 'broken-one',
      name: 'My broken server',
      transport: { type: 'stdio', command: 'broken-server-command' },
      autoConnect: false
    });
    try {
      const previous = page.url();
      await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
      const server = page.getByRole('region', { name: 'Tools' }).getByRole('combobox', { name: 'Server' });
      await server.selectOption('broken-one');
      for (const width of [1280, 800]) {
        await page.setViewportSize({ width, height: 900 });
        // The chosen option's words in the select's own font, against the room the select gives them.
        const { text, room } = await server.evaluate((select: HTMLSelectElement) => {
          const style = getComputedStyle(select);
          const context = document.createElement('canvas').getContext('2d')!;
          context.font = style.font;
          const words = select.selectedOptions[0]!.textContent ?? '';
          const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
          return { text: context.measureText(words).width, room: select.clientWidth - padding };
        });
        assert.ok(room >= text, `at ${width} px: ${Math.round(text)} px of words in ${Math.round(room)} px`);
      }
      // Back where the Desk was: the Tools screen's own links (“Tasks”) would stand beside the sections'.
      await page.goto(previous);
    } finally {
      await d.fixture.host.call('servers.remove', { serverId: 'broken-one' });
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('caps a filter bar’s Server choice when a server’s name is long, so the bar keeps its lines, at 1280 px and at 800 px', async () => {
    const longName = 'research-'.repeat(14).slice(0, 120);
    const bars = [
      ['Tasks', 'Tasks'],
      ['History', 'History'],
      ['Audit log', 'Audit log']
    ] as const;
    /** Each bar's height, the Server choice's width, and how far down the bar its Kind choice is. */
    const measure = async () => {
      const seen: Record<string, { height: number; server: number; kindTop: number | undefined }> = {};
      for (const width of [1280, 800]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [screen, name] of bars) {
          await page.getByRole('link', { name: screen, exact: true }).click();
          const bar = page.getByRole('search', { name });
          await bar.waitFor();
          // No function declared inside the page function: tsx would name it with a helper the page lacks.
          seen[`${screen} at ${width}`] = await bar.evaluate((form) => {
            const box = form.getBoundingClientRect();
            const [server, kind] = ['Server', 'Kind'].map((label) =>
              Array.from(form.querySelectorAll('label'))
                .find((one) => one.firstChild?.textContent === label)
                ?.querySelector('select')
                ?.getBoundingClientRect()
            );
            return {
              height: Math.round(box.height),
              server: Math.round(server!.width),
              kindTop: kind && Math.round(kind.top - box.top)
            };
          });
        }
      }
      return seen;
    };

    const short = await measure();
    await d.fixture.host.call('servers.add', {
      id: 'long-name',
      name: longName,
      transport: { type: 'stdio', command: 'long-name-server' }
    });
    try {
      const server = page.getByRole('search', { name: 'Audit log' }).getByRole('combobox', { name: 'Server' });
      await server.locator('option', { hasText: longName }).waitFor({ state: 'attached' });
      // The open list names it whole; the closed choice may cut it.
      assert.equal(await server.locator('option[value="long-name"]').textContent(), longName);
      const long = await measure();
      const cap = await page.evaluate(() => 16 * parseFloat(getComputedStyle(document.documentElement).fontSize));
      for (const [where, seen] of Object.entries(long)) {
        assert.ok(seen.server <= cap, `${where}: the Server choice is ${seen.server} px wide`);
        assert.equal(seen.height, short[where]!.height, `${where}: the bar's height, with the long name and without`);
        assert.equal(seen.kindTop, short[where]!.kindTop, `${where}: the Kind choice's place in the bar`);
      }
    } finally {
      await d.fixture.host.call('servers.remove', { serverId: 'long-name' });
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('gives the Audit log’s Detail room at 800 × 600: ids whole on a line, an entry a few lines tall, the table scrolling sideways in its frame', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    const conversationId = randomUUID();
    const toolCallId = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    d.fixture.host.audit.record({
      type: 'assistant.tool-decision',
      serverId: 'desk',
      detail: { conversationId, toolCallId, tool: 'echo', decision: 'approve', arguments: { message: 'hello' } }
    });
    d.fixture.host.audit.flush();
    try {
      await page.getByRole('link', { name: 'Audit log', exact: true }).click();
      const table = page.locator('table.audit');
      const row = table.locator('tr', { hasText: 'You allowed the assistant to call echo' });
      await row.waitFor();
      // Every id of the log (a task's, a conversation's, a tool call's) on one line, not cut every few characters.
      const cut = await cutWords(table.locator('td.detail dd'));
      assert.deepEqual(
        cut.filter((word) => /^[\w-]{8,48}$/.test(word)),
        [],
        'ids cut across lines'
      );
      const height = (await row.boundingBox())!.height;
      assert.ok(height <= 160, `the entry is ${Math.round(height)} px tall`);
      const detail = (await row.locator('td.detail').boundingBox())!.width;
      assert.ok(detail >= 280, `the Detail column is ${Math.round(detail)} px wide`);
      // What does not fit the window scrolls sideways inside the table's frame, never the page.
      const pageOverflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.ok(pageOverflow <= 0, `the page scrolls sideways by ${pageOverflow} px`);
    } finally {
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('fits the Audit log in its frame at 800 × 600: a server’s name whole on a line, the Detail wrapping, nothing cut at the right', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    const toolCallId = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    d.fixture.host.audit.record({
      type: 'assistant.tool-decision',
      serverId: 'everything',
      serverName: 'Everything',
      detail: {
        conversationId: randomUUID(),
        toolCallId,
        tool: 'simulate-research-query',
        decision: 'approve',
        arguments: { topic: 'tide pools of the northern coast and what lives in them', ambiguous: true }
      }
    });
    d.fixture.host.audit.flush();
    try {
      await page.getByRole('link', { name: 'Audit log', exact: true }).click();
      const table = page.locator('table.audit');
      // This test's own entry, by its call's id: other tests' calls of the same tool are audited
      // too (the wide-window Tasks test's made one whose row has no Detail to measure).
      const row = table.locator('tr', { hasText: toolCallId });
      await row.waitFor();
      assert.deepEqual(await cutWords(table.locator('td.server')), [], 'server names cut mid-word');
      const seen = await table.evaluate((element) => {
        const frame = element.parentElement!.getBoundingClientRect();
        return {
          overflow: element.parentElement!.scrollWidth - element.parentElement!.clientWidth,
          detailRight: Math.max(
            ...Array.from(element.querySelectorAll('td.detail')).map((cell) => cell.getBoundingClientRect().right)
          ),
          frameRight: frame.right
        };
      });
      assert.ok(seen.overflow <= 0, `the table runs ${seen.overflow} px past its frame`);
      assert.ok(
        seen.detailRight <= seen.frameRight,
        `the Detail ends at ${seen.detailRight} px, its frame at ${seen.frameRight} px`
      );
      const detail = (await row.locator('td.detail').boundingBox())!.width;
      assert.ok(detail >= 280, `the Detail column is ${Math.round(detail)} px wide`);
    } finally {
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps the Audit log within the window when a server’s name is long and has no space, and each event’s name on one line', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await d.fixture.host.call('servers.add', {
      id: 'unbroken',
      name: 'u'.repeat(120),
      transport: { type: 'stdio', command: 'unbroken-server' }
    });
    try {
      await page.getByRole('link', { name: 'Audit log', exact: true }).click();
      const table = page.locator('table.audit');
      await table
        .locator('td.server', { hasText: 'u'.repeat(120) })
        .first()
        .waitFor();
      const seen = {
        overflow: await table.evaluate(
          (element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth
        ),
        // Lines an event's name takes (its text's, not its block's one box).
        eventLines: await textLines(table.locator('td.event code'))
      };
      assert.ok(seen.overflow <= 0, `the table runs ${seen.overflow}px past its box`);
      assert.ok(seen.eventLines.length > 0);
      assert.deepEqual(
        seen.eventLines.filter((lines) => lines !== 1),
        [],
        'every event name on one line'
      );
    } finally {
      await d.fixture.host.call('servers.remove', { serverId: 'unbroken' });
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('cuts a long detail value with a button that shows it all, and less again', async () => {
    const message = `${'A long message. '.repeat(30)}The end.`;
    d.fixture.host.audit.record({
      type: 'tool.called',
      serverId: 'desk',
      detail: { tool: 'echo', arguments: { message }, outcome: 'result' }
    });
    d.fixture.host.audit.flush();
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    const dd = page
      .locator('table.audit tr', { hasText: 'A long message. A long message.' })
      .locator('.detail-pairs dd');
    const more = dd.getByRole('button', { name: /^Show all \(\d+ more characters\)$/ });
    await more.waitFor();
    assert.doesNotMatch((await dd.locator('code').textContent()) ?? '', /The end\./);
    await more.focus();
    await page.keyboard.press('Enter');
    const less = dd.getByRole('button', { name: 'Show less' });
    await less.waitFor();
    assert.equal(await less.getAttribute('aria-expanded'), 'true');
    assert.equal(await dd.locator('code').textContent(), JSON.stringify({ message }));
    await less.click();
    await more.waitFor();

    // A value a few characters past the cut shows whole: a newcomer saw "Show all (4 more characters)".
    const nearly = `Cannot POST /mcp: ${'the server answered 404. '.repeat(6)}`.slice(0, 150);
    assert.equal(JSON.stringify({ message: nearly }).length, 164);
    d.fixture.host.audit.record({
      type: 'tool.called',
      serverId: 'desk',
      detail: { tool: 'echo', arguments: { message: nearly }, outcome: 'result' }
    });
    d.fixture.host.audit.flush();
    const whole = page.locator('table.audit tr', { hasText: 'Cannot POST /mcp' }).locator('.detail-pairs dd code');
    await whole.waitFor();
    assert.equal(await whole.textContent(), JSON.stringify({ message: nearly }));
    assert.equal(await whole.locator('xpath=..').getByRole('button').count(), 0, 'no button for a few characters');
    assert.deepEqual(d.pageErrors, []);
  });

  it('puts a value that does not fit beside its name under it at 1280 px: a conversation’s id whole on a line', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const conversationId = randomUUID();
    d.fixture.host.audit.record({
      type: 'assistant.tool-decision',
      serverId: 'desk',
      detail: { conversationId, tool: 'echo', decision: 'approve', arguments: { message: 'hello' } }
    });
    // A long sentence beside it, as a research tool's task makes: its Event column took the room.
    const longId = randomUUID();
    d.fixture.host.audit.record({
      type: 'tool.call-ended',
      serverId: 'desk',
      detail: { tool: 'simulate-research-query', outcome: 'task', outboundId: `ob-${longId}`, callId: 'c1' }
    });
    d.fixture.host.audit.flush();
    try {
      await page.getByRole('link', { name: 'Audit log', exact: true }).click();
      const id = page.locator('table.audit td.detail dd', { hasText: conversationId });
      await id.waitFor();
      // Beside "conversationId" it was cut at a hyphen, the Event column having room to spare.
      assert.deepEqual(await textLines(id), [1]);
      // A short value stays beside its name.
      const decision = page.locator('table.audit tr', { hasText: conversationId }).locator('.detail-pairs > div', {
        has: page.locator('dt', { hasText: /^arguments$/ })
      });
      const [name, value] = await Promise.all([
        decision.locator('dt').boundingBox(),
        decision.locator('dd').boundingBox()
      ]);
      assert.equal(Math.round(name!.y), Math.round(value!.y));
      // Its time on one line: "PM" went to a line of its own beside an Event column with room.
      const times = page.locator('table.audit tr', { hasText: new RegExp(`${conversationId}|${longId}`) });
      assert.deepEqual(await textLines(times.locator('td.when time')), [1, 1]);
    } finally {
      await page.setViewportSize({ width: 800, height: 900 });
    }
    assert.deepEqual(d.pageErrors, []);
  });
});

describe('the Tasks screen with a server whose name is long and has no space', () => {
  const id = 'unbroken-'.padEnd(64, 'u');
  const peer = peerServer(id);
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ [id]: peer }, { viewport: { width: 1280, height: 800 } });
  });

  after(async () => {
    await d?.close();
  });

  it('wraps the name under the title at 1280 px and within the Server column at 1500 px, the table within its box', async () => {
    const asked = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Go on?',
          requestedSchema: { type: 'object', properties: {} },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await d.page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = d.page.locator(`table.tasks tr[data-task-key="received:${asked.task.taskId}"]`);
    // At 1280 px the table keeps to the screen's column: the server is said under the title.
    await row.locator('.task-meta', { hasText: id }).waitFor();
    const narrow = await d.page
      .locator('table.tasks')
      .evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth);
    assert.ok(narrow <= 0, `at 1280 px the table runs ${narrow}px past its box`);
    await d.page.setViewportSize({ width: 1500, height: 800 });
    await row.locator('td.server', { hasText: id }).waitFor();
    const seen = await d.page.locator('table.tasks').evaluate((table) => {
      const server = table.querySelector('td.server')!.getBoundingClientRect().width;
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      return { overflow: table.parentElement!.scrollWidth - table.parentElement!.clientWidth, server, rem };
    });
    assert.ok(seen.overflow <= 0, `the table runs ${seen.overflow}px past its box`);
    assert.ok(seen.server <= 14 * seen.rem + 1, `the Server column is ${seen.server}px wide`);
    assert.deepEqual(d.pageErrors, []);
  });
});

/** How many lines the text of each element `elements` finds is laid out on. */
function textLines(elements: Locator): Promise<number[]> {
  return elements.evaluateAll((found) =>
    found.map((element) => {
      const tops = new Set<number>();
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of Array.from(range.getClientRects())) if (rect.width > 0) tops.add(Math.round(rect.top));
      }
      return tops.size;
    })
  );
}

/** A table's frame: its role, tab index, and the sides it says more of the table is to. */
function frameState(frame: Locator) {
  return frame.evaluate((element) => ({
    role: element.getAttribute('role'),
    tabIndex: (element as HTMLElement).tabIndex,
    left: element.hasAttribute('data-more-left'),
    right: element.hasAttribute('data-more-right')
  }));
}
