import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { saveUnreachableProvider } from '../support/assistant-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * A model run made without asking that failed is a warning on the Desk that names where to look
 * (LLM providers, the Servers screen): it links them, in its words' order and before its Close,
 * each a link the keyboard reaches that opens its screen.
 */
describe('the notice of a failed run made without asking, in headless Chromium against the real core', () => {
  const peer: PeerServer = peerServer('unasked-peer');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({ a: peer }, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await saveUnreachableProvider(d.fixture.host);
    await d.fixture.host.call('sampling.setPolicy', {
      serverId: 'a',
      policy: { mode: 'auto', reviewCompletion: false }
    });
  });

  after(() => d?.close());

  it('links LLM providers and the Servers screen, before its Close, and each opens its screen', async () => {
    const failed = await peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
      .then(
        () => false,
        () => true
      );
    assert.equal(failed, true);
    const banner = page.locator('.host-warning').filter({ hasText: 'ran without asking' });
    await banner.waitFor();
    assert.match(
      (await banner.locator('.host-warning-text').textContent()) ?? '',
      /Check Broken local under LLM providers, or set Server a to Ask me first on the Servers screen\.Open Broken local in LLM providersOpen the Servers screen$/
    );
    // In the banner's text order, and the Close after them: what Tab goes through.
    const reachable = await banner.evaluate((element) =>
      Array.from(element.querySelectorAll<HTMLElement>('a[href], button')).map((item) =>
        item.tagName === 'A' ? `${item.textContent} ${item.getAttribute('href')}` : item.textContent
      )
    );
    assert.deepEqual(reachable, [
      'Open Broken local in LLM providers #providers/broken',
      'Open the Servers screen #servers',
      'Close notice'
    ]);

    const providers = banner.getByRole('link', { name: 'Open Broken local in LLM providers' });
    await providers.focus();
    await page.keyboard.press('Tab');
    assert.equal(
      await banner
        .getByRole('link', { name: 'Open the Servers screen' })
        .evaluate((link) => link === document.activeElement),
      true
    );
    await page.keyboard.press('Tab');
    assert.equal(
      await banner
        .getByRole('button', { name: 'Close notice' })
        .evaluate((button) => button === document.activeElement),
      true
    );

    // Enter on a link opens its screen at the provider's card, whose heading takes the focus; the
    // notice stays until closed.
    await providers.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#providers\/broken$/);
    await page.waitForFunction(
      () => document.activeElement === document.querySelector('li[data-provider-id="broken"] h3')
    );
    assert.equal(await page.locator('#screen-providers').isVisible(), true);
    await banner.getByRole('link', { name: 'Open the Servers screen' }).click();
    await page.waitForURL(/#servers$/);
    await page.waitForFunction(() => document.activeElement?.id === 'heading-servers');
    assert.equal(await page.locator('#screen-servers').isVisible(), true);
    // Again, from the screen it leads to: the address does not change, and the focus goes to its top all the same.
    const servers = banner.getByRole('link', { name: 'Open the Servers screen' });
    await servers.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'heading-servers');
    assert.equal(await page.locator('li[data-server-id="a"]').isVisible(), true);
    assert.deepEqual(d.pageErrors, []);
  });
});
