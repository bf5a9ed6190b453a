import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { inboxHolds, nextEvent, peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openServerSettings } from './server-settings.js';
import { recordHeard } from './live-region.js';

/** What the choices say of one arrowed to and not yet saved. */
const NOT_SAVED = 'Not saved yet: press Space to save this choice. Leaving the choices saves it too.';

describe('Refuse chosen while model requests of the server wait in the Inbox', () => {
  const peer: PeerServer = peerServer('refuse-peer');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({ p: peer }, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    await d.fixture.host.call('sampling.setPolicy', {
      serverId: 'p',
      policy: { mode: 'ask', reviewCompletion: true }
    });
  });

  after(() => d?.close());

  it('says what Refuse does to them, asks first, and says after what it answered', async () => {
    const message = (text: string) => [{ role: 'user' as const, content: { type: 'text' as const, text } }];
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { messages: message('As a task'), maxTokens: 10, task: { ttl: 120_000 } }
      },
      CreateTaskResultSchema
    );
    const plain = peer.server
      .request(
        { method: 'sampling/createMessage', params: { messages: message('Plainly'), maxTokens: 10 } },
        CreateMessageResultSchema
      )
      .then(
        () => 'answered',
        (error: Error) => error.message
      );
    const waitingInInbox = async () =>
      (await d.fixture.host.call('inbox.list', {})).filter((item) => item.serverId === 'p').length;
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
    await page.getByRole('article').getByText('As a task').first().waitFor();
    await page.getByRole('article').getByText('Plainly').first().waitFor();

    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    const card = page.locator('[data-server-id="p"]');
    await openServerSettings(card);
    const policy = card.locator('fieldset.policy');
    const refuse = policy.getByRole('radio', { name: 'Refuse' });
    // Before: the choice says what it will do to what waits.
    await policy.getByText('2 model requests from Server p wait in the Inbox: Refuse turns them down now.').waitFor();

    // Asked first; kept back, nothing changes.
    await refuse.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('2 model requests from Server p wait in the Inbox: Refuse turns them down now.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The choice goes back to what is saved on the render after the dialog's answer: waited for,
    // not read at once (under load the read came first, and found Refuse still shown).
    await policy.locator('input[type="radio"][value="refuse"]:not(:checked)').waitFor();
    assert.equal(await refuse.isChecked(), false);
    assert.equal((await d.fixture.host.call('sampling.getPolicy', { serverId: 'p' })).mode, 'ask');
    assert.equal(await waitingInInbox(), 2);

    // Agreed: saved, and the status says what it answered.
    await refuse.click();
    await dialog.getByRole('button', { name: 'Refuse them' }).click();
    await policy
      .getByText('Saved. The 2 model requests from Server p that waited in the Inbox were answered as refused.')
      .waitFor();
    assert.equal((await d.fixture.host.call('sampling.getPolicy', { serverId: 'p' })).mode, 'refuse');
    assert.equal(await waitingInInbox(), 0);
    assert.match(await plain, /Taskdesk withdrew this request/);
    const ended = await d.fixture.host.call('tasks.get', { taskId: task.taskId });
    assert.equal(ended.task.status, 'failed');
    assert.deepEqual(d.pageErrors, []);
  });

  it('follows what waits while it asks: one that came makes it "Refuse them", and the host refuses both', async () => {
    await d.fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    const ask = (text: string) =>
      peer.server
        .request(
          {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 }
          },
          CreateMessageResultSchema
        )
        .then(
          () => 'answered',
          (error: Error) => error.message
        );
    const first = ask('Waiting first');
    const card = page.locator('[data-server-id="p"]');
    const policy = card.locator('fieldset.policy');
    await policy.getByText('1 model request from Server p waits in the Inbox: Refuse turns it down now.').waitFor();

    await policy.getByRole('radio', { name: 'Refuse' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('1 model request from Server p waits in the Inbox: Refuse turns it down now.').waitFor();
    await dialog.getByRole('button', { name: 'Refuse it', exact: true }).waitFor();
    const second = ask('Came while asked');
    await inboxHolds(d.fixture.host, 2);
    // The dialog's words and its button follow the Inbox, not what waited when it opened.
    await dialog.getByText('2 model requests from Server p wait in the Inbox: Refuse turns them down now.').waitFor();
    await dialog.getByRole('button', { name: 'Refuse them', exact: true }).click();
    await policy
      .getByText('Saved. The 2 model requests from Server p that waited in the Inbox were answered as refused.')
      .waitFor();
    assert.match(await first, /Taskdesk withdrew this request/);
    assert.match(await second, /Taskdesk withdrew this request/);
    assert.deepEqual(d.pageErrors, []);
  });

  it('says so when what waited is answered while it asks: Refuse then turns down only those to come', async () => {
    await d.fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    const asked = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Answered while asked' } }],
            maxTokens: 10
          }
        },
        CreateMessageResultSchema
      )
      .then(
        () => 'answered',
        (error: Error) => error.message
      );
    const card = page.locator('[data-server-id="p"]');
    const policy = card.locator('fieldset.policy');
    await policy.getByText('1 model request from Server p waits in the Inbox: Refuse turns it down now.').waitFor();

    await policy.getByRole('radio', { name: 'Refuse' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Refuse it', exact: true }).waitFor();
    const [item] = (await d.fixture.host.call('inbox.list', {})).filter((entry) => entry.serverId === 'p');
    await d.fixture.host.call('inbox.answer', { id: item!.id, answer: { action: 'reject', reason: 'Not now' } });
    assert.notEqual(await asked, 'answered');
    await dialog
      .getByText(
        'No model request from Server p waits in the Inbox any more: Refuse turns down only those that come from now on.'
      )
      .waitFor();
    // The card's "Saved." of the test before may still show: the host's word on this save is waited for.
    const saved = nextEvent(
      d.fixture.host,
      'policies.changed',
      (event) => event.serverId === 'p' && event.policy.mode === 'refuse'
    );
    await dialog.getByRole('button', { name: 'Refuse', exact: true }).click();
    await saved;
    await policy.getByText('Saved.', { exact: true }).waitFor();
    assert.equal((await d.fixture.host.call('sampling.getPolicy', { serverId: 'p' })).mode, 'refuse');
    assert.deepEqual(d.pageErrors, []);
  });

  it('by keyboard: says a choice not saved yet as it changes, and Escape on the question gives the focus back to the choices', async () => {
    await d.fixture.host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    const asked = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Arrowed past' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
      .then(
        () => 'answered',
        (error: Error) => error.message
      );
    const card = page.locator('[data-server-id="p"]');
    const policy = card.locator('fieldset.policy');
    await policy.getByText('1 model request from Server p waits in the Inbox: Refuse turns it down now.').waitFor();
    const ask = policy.getByRole('radio', { name: 'Ask me first' });
    const refuse = policy.getByRole('radio', { name: 'Refuse' });
    assert.equal(await ask.isChecked(), true);

    // The arrow checks Refuse without saving it: a screen reader hears that, and how to save it.
    await recordHeard(page);
    await ask.focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await refuse.isChecked(), true);
    await page.waitForFunction((words) => (window as unknown as { heard: string[] }).heard.includes(words), NOT_SAVED);
    await policy.getByText(NOT_SAVED, { exact: true }).waitFor();

    // Leaving the choices saves it, asking first; Escape keeps what was saved, the focus on its choice, not the page.
    await page.keyboard.press('Tab');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Refuse it', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await policy.locator('input[type="radio"][value="ask"]:checked').waitFor();
    await page.waitForFunction(() =>
      document.activeElement?.matches('[data-server-id="p"] fieldset.policy input[type="radio"][value="ask"]')
    );
    assert.equal((await d.fixture.host.call('sampling.getPolicy', { serverId: 'p' })).mode, 'ask');
    assert.equal(await policy.getByText(NOT_SAVED).count(), 0, 'nothing waits to be saved');

    // By Space, agreed: saved, the focus on Refuse.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await dialog.getByRole('button', { name: 'Refuse it', exact: true }).click();
    await policy
      .getByText('Saved. The model request from Server p that waited in the Inbox was answered as refused.')
      .waitFor();
    await page.waitForFunction(() =>
      document.activeElement?.matches('[data-server-id="p"] fieldset.policy input[type="radio"][value="refuse"]')
    );
    assert.match(await asked, /Taskdesk withdrew this request/);
    assert.deepEqual(d.pageErrors, []);
  });
});
