import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { HostError, JsonRpcCode } from '../../app/core/errors.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * An Inbox question answered with its answers wrong: each marked answer says what it needs, and
 * the summary above the buttons ("2 answers need correcting.") follows the marks as the person
 * corrects them, going once none is left, as the Servers forms' does.
 */
describe('an Inbox question’s answers to correct, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const asked = new AbortController();

  before(async () => {
    built = await buildRenderer();
    peer = peerServer('correcting-peer');
    fixture = await startHostWith({ desk: peer });
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors));
  });

  after(async () => {
    asked.abort('the test is over');
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  const ask = (message: string, properties: Record<string, unknown>, required: string[]) => {
    const answer = peer.server.request(
      {
        method: 'elicitation/create',
        params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required } }
      },
      ElicitResultSchema,
      { signal: asked.signal }
    );
    // Awaited by the test; a test that fails first leaves it to the abort in `after`.
    answer.catch(() => undefined);
    return answer;
  };

  it('takes the summary away once the one marked answer is typed in, after a refused Enter', async () => {
    const answer = ask('Which depot should the van leave from?', { depot: { type: 'string', title: 'Depot' } }, [
      'depot'
    ]);
    const card = page.getByRole('article', { name: 'Which depot should the van leave from?' });
    await card.waitFor();
    // a on the card takes the person to the empty field (it sends nothing); Enter there sends the
    // answer with its required field empty.
    await card.focus();
    await page.keyboard.press('a');
    const depot = card.getByLabel('Depot');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'depot');
    await page.keyboard.press('Enter');
    const depotError = card.locator(`#${await depot.getAttribute('id')}-error`);
    await depotError.waitFor();
    assert.equal(await depotError.textContent(), 'Required');
    const summary = card.locator('.action-error');
    assert.equal(
      await summary.textContent(),
      'One answer needs correcting.Each marked answer says what it needs.Hide message'
    );

    await depot.fill('North');
    await depotError.waitFor({ state: 'hidden' });
    // Nothing is marked any more: no summary says one is.
    await summary.locator('.action-error-what').waitFor({ state: 'detached' });
    assert.equal(await summary.isVisible(), false);
    assert.equal(await card.locator('[aria-invalid="true"]').count(), 0);

    await card.getByRole('button', { name: 'Submit' }).click();
    const answered = await answer;
    assert.deepEqual([answered.action, answered.content], ['accept', { depot: 'North' }]);
  });

  it('counts the marked answers down as they are corrected, then takes the summary away', async () => {
    const answer = ask(
      'Where and how many?',
      {
        email: { type: 'string', format: 'email', title: 'Email address' },
        copies: { type: 'integer', minimum: 1, maximum: 5, title: 'Copies' }
      },
      ['email', 'copies']
    );
    const card = page.getByRole('article', { name: 'Where and how many?' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Submit' }).click();
    const what = card.locator('.action-error-what');
    await what.filter({ hasText: '2 answers need correcting.' }).waitFor();

    await card.getByLabel('Email address').fill('ada@example.com');
    await what.filter({ hasText: 'One answer needs correcting.' }).waitFor();
    // Wrong in another way: still marked, still one.
    await card.getByLabel('Copies').fill('9');
    const copiesError = card.locator(`#${await card.getByLabel('Copies').getAttribute('id')}-error`);
    await copiesError.filter({ hasText: 'Must be at most 5' }).waitFor();
    assert.equal(await what.textContent(), 'One answer needs correcting.');

    await card.getByLabel('Copies').fill('2');
    await copiesError.waitFor({ state: 'hidden' });
    await what.waitFor({ state: 'detached' });

    await card.getByRole('button', { name: 'Submit' }).click();
    const answered = await answer;
    assert.deepEqual([answered.action, answered.content], ['accept', { email: 'ada@example.com', copies: 2 }]);
    assert.deepEqual(pageErrors, []);
  });

  it('shows a message no answer holds in the summary, and takes the summary away once every answer is corrected', async () => {
    // The host refuses the first answer with a message on its one field and one about the whole
    // answer, which the form has no field for.
    let refused = false;
    const answer = fixture.host.inbox.ask(
      {
        kind: 'elicitation',
        serverId: 'desk',
        serverName: 'Server desk',
        request: {
          mode: 'form',
          message: 'Which depot today?',
          requestedSchema: { type: 'object', properties: { depot: { type: 'string', title: 'Depot' } } }
        }
      },
      asked.signal,
      () => {
        if (refused) return;
        refused = true;
        throw new HostError(JsonRpcCode.InvalidParams, 'The answer does not match the form', {
          fields: { depot: 'Closed today', '': 'The van is booked that day' }
        });
      }
    );
    answer.catch(() => undefined);
    const card = page.getByRole('article', { name: 'Which depot today?' });
    await card.waitFor();
    const depot = card.getByLabel('Depot');
    await depot.fill('North');
    await card.getByRole('button', { name: 'Submit' }).click();
    const depotError = card.locator(`#${await depot.getAttribute('id')}-error`);
    await depotError.filter({ hasText: 'Closed today' }).waitFor();
    // One answer to correct, and the message no answer holds said with it.
    const summary = card.locator('.action-error');
    assert.equal(
      await summary.textContent(),
      'One answer needs correcting. The van is booked that day.Each marked answer says what it needs.Hide message'
    );

    await depot.fill('South');
    await depotError.waitFor({ state: 'hidden' });
    // Nothing is marked any more: no summary says one is.
    await summary.locator('.action-error-what').waitFor({ state: 'detached' });
    assert.equal(await card.locator('[aria-invalid="true"]').count(), 0);

    await card.getByRole('button', { name: 'Submit' }).click();
    const answered = await answer;
    assert.deepEqual(answered, { action: 'accept', content: { depot: 'South' } });
    assert.deepEqual(pageErrors, []);
  });
});
