import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * An ordinary (not task) request has no TTL: its server may cancel it, or stop waiting, at any
 * time. The card says how long it has waited, and a withdrawn question is told, not just gone.
 */
describe('an ordinary question its server withdraws', () => {
  let desk: DeskFixture;
  let peer: PeerServer;

  before(async () => {
    peer = peerServer('plain-peer');
    desk = await startDesk({ a: peer });
  });

  after(async () => {
    await desk?.close();
  });

  it('shows how long it has waited, and after the server cancels it, a notice with its words until dismissed', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const asked = peer.server
      .elicitInput(
        {
          mode: 'form',
          message: 'Which region should the report cover?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } }
        },
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    const card = page.locator('.inbox-item').filter({ hasText: 'Which region should the report cover?' });
    await card.waitFor();
    assert.match((await card.locator('.waiting-since').textContent()) ?? '', /^waiting for \d+ s$/);
    // An ordinary request: the server is the one waiting, on the person.
    assert.match((await card.locator('.meta').textContent()) ?? '', / · the server waits for your answer · /);

    controller.abort('the server gave up');
    assert.ok((await asked) instanceof Error, 'the server side saw its request end');
    await card.waitFor({ state: 'detached' });
    const notice = page.locator('.notice-withdrawn');
    await notice.waitFor();
    assert.match(
      (await notice.locator('p').textContent()) ?? '',
      /^Server a withdrew its question “Which region should the report cover\?” before you answered/
    );
    // Screen readers hear which request went, not "a question was withdrawn".
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText('Server a withdrew its question “Which region should the report cover?”.')
      .waitFor();
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    // Dismiss goes with its notice: the focus goes to the screen's heading, not the page.
    await page.waitForFunction(() => document.activeElement?.id === 'heading-inbox');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('answers Decline as no and Dismiss as no choice, each button saying so, not "Cancel"', async () => {
    const { page } = desk;
    const ask = (message: string) =>
      peer.server.elicitInput({
        mode: 'form',
        message,
        requestedSchema: { type: 'object', properties: { region: { type: 'string' } } }
      });
    const asked = ask('Which team should be told?');
    const card = page.locator('.inbox-item').filter({ hasText: 'Which team should be told?' });
    const dismiss = card.getByRole('button', { name: 'Dismiss', exact: true });
    await dismiss.waitFor();
    assert.equal(await card.getByRole('button', { name: 'Cancel' }).count(), 0);
    const description = await dismiss.evaluate(
      (button) => document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent
    );
    assert.equal(description, 'Tells the server you made no choice; it may ask again.');
    await dismiss.click();
    assert.equal((await asked).action, 'cancel');
    await page.locator('.inbox-answered').getByText('Dismissed: Server a’s question.').waitFor();

    const declined = ask('Which office should be told?');
    await page
      .locator('.inbox-item')
      .filter({ hasText: 'Which office should be told?' })
      .getByRole('button', { name: 'Decline', exact: true })
      .click();
    assert.equal((await declined).action, 'decline');
    assert.deepEqual(desk.pageErrors, []);
  });
});
