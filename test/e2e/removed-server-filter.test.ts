import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * Two servers saved from the Desk, both server-everything over stdio; the second, whose tool tasks
 * were waiting on a question, removed. Its tasks stay listed on Tasks and History, and its name in
 * their Server filters.
 */
describe('a removed server’s entries in the Server filter, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let host: Host;
  const data = tempDir();
  const closers: Array<() => Promise<unknown>> = [];
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      transportFactory: () =>
        new StdioClientTransport({ command: everythingServer.transport.command, args: everythingServer.transport.args })
    });
    for (const [id, name] of [
      ['one', 'Everything one'],
      ['two', 'Everything two']
    ]) {
      await host.call('servers.add', {
        id: id!,
        name: name!,
        autoConnect: false,
        transport: { type: 'stdio', command: 'everything-server', args: [] }
      });
      assert.equal((await host.call('servers.connect', { serverId: id! })).state.status, 'ready');
    }
    for (const [serverId, topic] of [
      ['one', 'rust'],
      ['two', 'python'],
      ['two', 'go']
    ]) {
      const asked = nextEvent(host, 'inbox.added');
      const outcome = await host.call('tools.call', {
        serverId: serverId!,
        name: 'simulate-research-query',
        arguments: { topic: topic!, ambiguous: true }
      });
      assert.equal(outcome.type, 'task');
      await asked;
    }
    await host.call('servers.remove', { serverId: 'two' });
  });

  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await host?.close();
    data.remove();
    built?.remove();
  });

  /** The Server filter's choices, as the person reads them. */
  async function serverChoices(region: ReturnType<Awaited<ReturnType<typeof openDesk>>['page']['getByRole']>) {
    return region
      .getByRole('combobox', { name: 'Server', exact: true })
      .locator('option')
      .evaluateAll((options) => options.map((option) => option.textContent));
  }

  it('offers the removed server once, said as removed, on Tasks and on History, and filters by it', async () => {
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors);
    closers.push(
      () => browser.close(),
      () => server.close()
    );

    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByText('3 tasks', { exact: true }).waitFor();
    assert.deepEqual(await serverChoices(tasks), ['Any', 'Everything one', 'Everything two (removed)']);
    await tasks
      .getByRole('combobox', { name: 'Server', exact: true })
      .selectOption({ label: 'Everything two (removed)' });
    await tasks.getByText('2 of 3 tasks match', { exact: true }).waitFor();

    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    // Its tool tasks, and the questions they asked that ended (the removed server's, withdrawn).
    await history.locator('.history-count', { hasText: /^\d+ entries$/ }).waitFor();
    assert.deepEqual(await serverChoices(history), ['Any', 'Everything one', 'Everything two (removed)']);
    await history
      .getByRole('combobox', { name: 'Server', exact: true })
      .selectOption({ label: 'Everything two (removed)' });
    await history.locator('.history-count', { hasText: /^\d+ of \d+ entries match$/ }).waitFor();
    const metas = await history.locator('.history-list .meta').allTextContents();
    assert.ok(metas.length >= 2, metas.join('\n'));
    assert.ok(
      metas.every((meta) => meta.includes('Everything two')),
      metas.join('\n')
    );
    // Still offered, as chosen, though the list now holds none of the others.
    assert.deepEqual(await serverChoices(history), ['Any', 'Everything one', 'Everything two (removed)']);
    assert.deepEqual(pageErrors, []);
  });
});
