import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent } from '../support/host-fixture.js';
import { openEverythingDesk } from './everything-desk.js';

describe('the Tools screen keeps each server’s forms, what was typed and what they showed, while another server is shown', () => {
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let tools: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 1100, height: 1400 } }));
    // A second server-everything: the same tool names on another server.
    await host.call('servers.add', {
      ...everythingServer,
      id: 'second',
      name: 'Second everything',
      autoConnect: false
    });
    assert.equal((await host.connect('second')).state.status, 'ready');
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    tools = page.getByRole('region', { name: 'Tools' });
  });

  after(async () => {
    await close?.();
  });

  /** A tool's card, once its server's list is shown. */
  const shownTool = async (serverId: string, name: string) => {
    const item = tools.locator(`li[data-tool-server="${serverId}"][data-tool="${name}"]`);
    await item.waitFor();
    return item;
  };
  const chooseServer = (serverId: string) => tools.getByLabel('Server', { exact: true }).selectOption(serverId);

  it('shows an open form with its typed text and the results of earlier calls again after another server', async () => {
    // The Desk lists a server added from it before the configured one: the configured one, by choice.
    await chooseServer('everything');
    const echo = await shownTool('everything', 'echo');
    await echo.getByRole('button', { name: 'Call echo…' }).click();
    const echoForm = echo.getByRole('form', { name: 'Call echo' });
    await echoForm.getByLabel('message').fill('hello world');
    await echoForm.getByRole('button', { name: 'Call tool' }).click();
    await echoForm.locator('.call-result').getByText('Echo: hello world').waitFor();

    const research = await shownTool('everything', 'simulate-research-query');
    await research.getByRole('button', { name: 'Call simulate-research-query…' }).click();
    const researchForm = research.getByRole('form', { name: 'Call simulate-research-query' });
    await researchForm.getByLabel('topic').fill('tide pools');
    const finished = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'simulate-research-query' && !!event.task.outcome
    );
    await researchForm.getByRole('button', { name: 'Call tool' }).click();
    await finished;
    await researchForm.locator('.call-result').getByText('Research Report: tide pools').waitFor();

    // Typed, not sent, before switching.
    await echoForm.getByLabel('message').fill('typed before switching');

    await chooseServer('second');
    const secondEcho = await shownTool('second', 'echo');
    assert.equal(await echo.isVisible(), false, 'the first server’s tools are not shown with the second’s');
    await secondEcho.getByRole('button', { name: 'Call echo…' }).click();
    const secondForm = secondEcho.getByRole('form', { name: 'Call echo' });
    await secondForm.getByLabel('message').fill('typed on the second');

    await chooseServer('everything');
    await shownTool('everything', 'echo');
    assert.ok(await echoForm.isVisible(), 'the echo form is open again');
    assert.equal(await echoForm.getByLabel('message').inputValue(), 'typed before switching');
    assert.ok(await echoForm.locator('.call-result').getByText('Echo: hello world').isVisible(), 'the echo result');
    assert.ok(
      await researchForm.locator('.call-result').getByText('Research Report: tide pools').isVisible(),
      'the research report'
    );
    assert.equal(await echo.getByRole('button', { name: 'Close form for echo' }).count(), 1, 'its disclosure is open');

    // And the second server's form, kept the same way.
    await chooseServer('second');
    await shownTool('second', 'echo');
    assert.ok(await secondForm.isVisible(), 'the second server’s echo form is open again');
    assert.equal(await secondForm.getByLabel('message').inputValue(), 'typed on the second');
    assert.deepEqual(pageErrors, []);
  });
});
