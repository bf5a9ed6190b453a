import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page, Route } from 'playwright-core';
import { type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, said, saidTimes } from './live-region.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { sampling, startReviewDesk } from './review-desk.js';

/** An ordinary (not task) form question with one text field, Note. */
const ask = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form' as const,
    message,
    requestedSchema: { type: 'object' as const, properties: { note: { type: 'string' as const, title: 'Note' } } }
  }
});

/** The inbox id of the card that holds focus (the card itself or a control in it). */
const focusedCard = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId);

/**
 * Keeps the Desk's `inbox.answer` calls on their way (the host has not got them) until `release`,
 * which lets them go on as they were.
 */
async function holdAnswers(page: Page): Promise<{ release(): Promise<void> }> {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => (letGo = resolve));
  const hold = async (route: Route) => {
    if ((route.request().postDataJSON() as { method?: string } | null)?.method !== 'inbox.answer')
      return route.fallback();
    await released;
    await route.fallback();
  };
  await page.route('**/api/call', hold);
  return {
    release: async () => {
      letGo();
      await page.unroute('**/api/call', hold);
    }
  };
}

/**
 * A Decline or Dismiss in the Inbox waits five seconds, its card replaced by a line with Undo,
 * before it goes to the server: a stray key press is taken back, the card as it was.
 */
describe('Undo after Decline or Dismiss in the Inbox', () => {
  let desk: DeskFixture;
  let peer: PeerServer;

  before(async () => {
    peer = peerServer('undo-peer');
    // The page's clock is driven here: the undo window passes when the test says, not in real time.
    desk = await startDesk({ a: peer }, { beforeLoad: (page) => page.clock.install() });
    await recordSaid(desk.page);
  });

  after(async () => {
    await desk?.close();
  });

  /** Whether the host still has the question waiting: its answer has not been sent. */
  const waiting = async (id: string) => (await desk.fixture.host.call('inbox.list', {})).some((item) => item.id === id);

  it('holds a Decline for 5 seconds: Undo brings the card back with what was typed; declined again, it goes when the window ends', async () => {
    const { page } = desk;
    let answered = false;
    const asked = peer.server.request(ask('Pick a shelf'), ElicitResultSchema).finally(() => (answered = true));
    const card = page.getByRole('article', { name: 'Pick a shelf' });
    await card.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    await card.getByLabel('Note').fill('Top shelf');

    const badge = page.locator('a[data-screen="inbox"] .badge');
    assert.equal(await badge.textContent(), '1');
    const { host } = desk.fixture;
    assert.equal(host.inbox.waiting, 1);
    const heldByDesk = nextEvent(host, 'inbox.held', (event) => event.id === id && event.held);
    await card.getByRole('button', { name: 'Decline' }).click();
    // The card gives its place to a line with Undo; the server has no answer, and the host still waits on it.
    const line = page.locator(`.inbox-held[data-held-id="${id}"]`);
    await line.waitFor();
    // Answered: the Inbox's badge no longer counts it as waiting on the person (shown with the line, not after).
    assert.equal(await badge.count(), 0);
    assert.equal(await line.textContent(), 'Declined Server a’s question “Pick a shelf”. Undo');
    assert.equal(await card.isVisible(), false);
    // The Desk tells the host, whose count for the tray and dock leaves it out too, though it still waits on the answer.
    await heldByDesk;
    assert.equal(host.inbox.waiting, 0);
    assert.equal(host.inbox.size, 1);
    await page.clock.fastForward(4_000);
    assert.equal(await waiting(id), true);
    assert.equal(answered, false);
    await saidTimes(page, /^Declined Server a’s question “Pick a shelf”\. You can undo it for 5 seconds: press u\.$/);

    const backToYou = nextEvent(host, 'inbox.held', (event) => event.id === id && !event.held);
    await line.getByRole('button', { name: 'Undo' }).click();
    await card.waitFor();
    assert.equal(await line.count(), 0);
    await backToYou;
    assert.equal(host.inbox.waiting, 1);
    // Said, as the answer was: a screen reader hears the card came back.
    await saidTimes(page, /^Brought back Server a’s question “Pick a shelf”\.$/);
    assert.equal(await badge.textContent(), '1');
    assert.equal(await card.getByLabel('Note').inputValue(), 'Top shelf');
    assert.equal(await focusedCard(page), id);
    // Taken back: its window passing sends nothing.
    await page.clock.fastForward(10_000);
    assert.equal(await waiting(id), true);
    assert.equal(answered, false);

    await card.getByRole('button', { name: 'Decline' }).click();
    await line.waitFor();
    await page.clock.fastForward(4_000);
    assert.equal(await waiting(id), true);
    await page.clock.fastForward(1_000);
    assert.equal((await asked).action, 'decline');
    await card.waitFor({ state: 'detached' });
    await line.waitFor({ state: 'detached' });
    await page
      .locator('.inbox-answered')
      .getByText(/^Declined Server a’s question “Pick a shelf”\.$/)
      .waitFor();
    assert.equal(await waiting(id), false);
    // Said once as it was held (once more as it was held again), once as it came back, not again as it went.
    const heard = (await said(page)).filter((text) => text.includes('“Pick a shelf”'));
    assert.equal(heard.length, 3);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('takes back a Dismiss given with x when u is pressed, and sends it 5 seconds after x is pressed again', async () => {
    const { page } = desk;
    let answered = false;
    const asked = peer.server.request(ask('Keep this note'), ElicitResultSchema).finally(() => (answered = true));
    const card = page.getByRole('article', { name: 'Keep this note' });
    await card.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    await card.focus();

    await page.keyboard.press('x');
    const line = page.locator(`.inbox-held[data-held-id="${id}"]`);
    await line.waitFor();
    assert.equal(await line.textContent(), 'Dismissed Server a’s question “Keep this note”. Undo');
    await page.clock.fastForward(2_000);
    await page.keyboard.press('u');
    await card.waitFor();
    await saidTimes(page, /^Brought back Server a’s question “Keep this note”\.$/);
    assert.equal(await focusedCard(page), id);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'ARTICLE');
    await page.clock.fastForward(10_000);
    assert.equal(await waiting(id), true);
    assert.equal(answered, false);

    // u is in the keys' help.
    await page.keyboard.press('?');
    const help = page.locator('dialog.keys-help');
    await help.getByText('Undo the last Decline, Reject or Dismiss, in the 5 seconds before it is sent').waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    await card.focus();
    await page.keyboard.press('x');
    await line.waitFor();
    await page.clock.fastForward(5_000);
    assert.equal((await asked).action, 'cancel');
    await card.waitFor({ state: 'detached' });
    // Nothing held is left to undo.
    await page.keyboard.press('u');
    await saidTimes(page, /^Nothing to undo: a Decline, Reject or Dismiss can be undone for 5 seconds\.$/);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('says a question withdrawn while its Decline was held was answered, not sent; u then says its server withdrew it', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const asked = peer.server.request(ask('Which bin?'), ElicitResultSchema, { signal: controller.signal }).then(
      () => 'answered',
      () => 'withdrawn'
    );
    const card = page.getByRole('article', { name: 'Which bin?' });
    await card.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    await card.focus();
    await page.keyboard.press('d');
    const line = page.locator(`.inbox-held[data-held-id="${id}"]`);
    await line.waitFor();
    await page.clock.fastForward(1_000);
    // The server gives up waiting, 4 seconds before the Decline would have gone.
    controller.abort('gave up');
    assert.equal(await asked, 'withdrawn');
    await line.waitFor({ state: 'detached' });
    const words = 'Server a withdrew its question “Which bin?” while your Decline waited to be sent: it was not sent.';
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Which bin?' });
    await notice.waitFor();
    assert.equal(await notice.locator('p').first().textContent(), words);
    await saidTimes(page, new RegExp(`^${words.replace(/[?.]/g, '\\$&')}$`));
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('u');
    await saidTimes(page, /^Nothing to undo: Server a withdrew that question\.$/);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('says a held answer the host refused when its window ended, whatever screen shows, and puts its card back with why', async () => {
    const { page } = desk;
    const asked = peer.server.request(ask('Refused later'), ElicitResultSchema);
    const card = page.getByRole('article', { name: 'Refused later' });
    await card.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    const refuse = async (route: Route) => {
      if ((route.request().postDataJSON() as { method?: string } | null)?.method !== 'inbox.answer')
        return route.fallback();
      await route.fulfill({ status: 200, json: { ok: false, error: { code: -32603, message: 'The disk is full.' } } });
    };
    await page.route('**/api/call', refuse);
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.locator(`.inbox-held[data-held-id="${id}"]`).waitFor();
    await page.locator('a[data-screen="tasks"]').click();
    await page.clock.fastForward(5_000);
    await saidTimes(page, /^Your answer was not sent to Server a: The disk is full\.$/);
    await page.unroute('**/api/call', refuse);
    await page.locator('a[data-screen="inbox"]').click();
    await card.getByText('Your answer was not sent to Server a.', { exact: false }).waitFor();
    assert.equal(await waiting(id), true);
    // Answered for good, so that the Inbox is empty again.
    await card.getByRole('button', { name: 'Dismiss' }).click();
    await page.clock.fastForward(5_000);
    assert.equal((await asked).action, 'cancel');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('gives the focus on Undo to the next card when the window ends, or to the heading when no card is left', async () => {
    const { page } = desk;
    const first = peer.server.request(ask('Undo in focus'), ElicitResultSchema);
    const second = peer.server.request(ask('Next in line'), ElicitResultSchema);
    const card = page.getByRole('article', { name: 'Undo in focus' });
    const next = page.getByRole('article', { name: 'Next in line' });
    await next.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    const nextId = (await next.getAttribute('data-inbox-id'))!;
    // Each answer is kept on its way until the focus was looked at: its line stays meanwhile, with no Undo.
    let held = await holdAnswers(page);
    await card.getByRole('button', { name: 'Decline' }).click();
    const line = page.locator(`.inbox-held[data-held-id="${id}"]`);
    await line.getByRole('button', { name: 'Undo' }).focus();
    await page.clock.fastForward(5_000);
    await line.getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached' });
    assert.equal(await line.isVisible(), true);
    assert.equal(await focusedCard(page), nextId);
    await held.release();
    assert.equal((await first).action, 'decline');
    await line.waitFor({ state: 'detached' });
    assert.equal(await focusedCard(page), nextId);

    // The last card: the heading takes the focus, as it does when the last card is answered.
    held = await holdAnswers(page);
    await next.getByRole('button', { name: 'Decline' }).click();
    const nextLine = page.locator(`.inbox-held[data-held-id="${nextId}"]`);
    await nextLine.getByRole('button', { name: 'Undo' }).focus();
    await page.clock.fastForward(5_000);
    await nextLine.getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'heading-inbox');
    await held.release();
    assert.equal((await second).action, 'decline');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('gives the focus on Undo to the next card when its question is withdrawn during the window', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const gone = peer.server
      .request(ask('Withdrawn under Undo'), ElicitResultSchema, { signal: controller.signal })
      .catch((error: unknown) => error);
    const stays = peer.server.request(ask('Stays after it'), ElicitResultSchema);
    const card = page.getByRole('article', { name: 'Withdrawn under Undo' });
    const next = page.getByRole('article', { name: 'Stays after it' });
    await next.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    const nextId = (await next.getAttribute('data-inbox-id'))!;
    await card.getByRole('button', { name: 'Decline' }).click();
    const line = page.locator(`.inbox-held[data-held-id="${id}"]`);
    await line.getByRole('button', { name: 'Undo' }).focus();
    controller.abort('the server gave up');
    await gone;
    await line.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement !== document.body);
    assert.equal(await focusedCard(page), nextId);
    await next.getByRole('button', { name: 'Decline' }).click();
    await page.clock.fastForward(5_000);
    assert.equal((await stays).action, 'decline');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('keeps what the live region said as a line of its own when the next message comes, not replaced by it', async () => {
    const { page } = desk;
    const asked = peer.server.request(ask('Said twice'), ElicitResultSchema);
    const card = page.getByRole('article', { name: 'Said twice' });
    await card.waitFor();
    await card.focus();
    await page.keyboard.press('d');
    await saidTimes(page, /^Declined Server a’s question “Said twice”\. You can undo it/);
    await page.keyboard.press('u');
    await saidTimes(page, /^Brought back Server a’s question “Said twice”\.$/);
    const region = page.locator('.sr-only[aria-live="polite"]');
    // Each line is said alone when it is added: the region as a whole is not said again.
    assert.equal(await region.getAttribute('aria-atomic'), 'false');
    assert.equal(await region.getAttribute('aria-relevant'), 'additions');
    const lines = await region.locator('p').allTextContents();
    assert.ok(lines.length <= 3, 'the oldest lines are taken out');
    assert.deepEqual(lines.slice(-2), [
      'Declined Server a’s question “Said twice”. You can undo it for 5 seconds: press u.',
      'Brought back Server a’s question “Said twice”.'
    ]);
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.clock.fastForward(5_000);
    assert.equal((await asked).action, 'decline');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('puts the focus on the Undo of a held answer when a link names its question (#inbox/<id>)', async () => {
    const { page } = desk;
    const asked = peer.server.request(ask('Linked while held'), ElicitResultSchema);
    const card = page.getByRole('article', { name: 'Linked while held' });
    await card.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    await card.getByRole('button', { name: 'Decline' }).click();
    const line = page.locator(`.inbox-held[data-held-id="${id}"]`);
    await line.waitFor();
    await page.locator('a[data-screen="tasks"]').click();
    await page.locator('#heading-tasks').waitFor();
    await page.evaluate((to) => (location.hash = to), `#inbox/${id}`);
    await line.waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Undo');
    assert.equal(
      await line.getByRole('button', { name: 'Undo' }).evaluate((button) => button === document.activeElement),
      true
    );
    await page.clock.fastForward(5_000);
    assert.equal((await asked).action, 'decline');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('brings the focused card back below a notice that comes up over it', async () => {
    const { page } = desk;
    await page.setViewportSize({ width: 800, height: 600 });
    const controller = new AbortController();
    // Cards below the one the person is on, so that the page scrolls its top to the bar.
    const stays = peer.server.request(ask('Stays here'), ElicitResultSchema);
    const first = peer.server
      .request(ask('Soon withdrawn'), ElicitResultSchema, { signal: controller.signal })
      .catch(() => 'withdrawn');
    const fillers = ['Filler one', 'Filler two'].map((name) => peer.server.request(ask(name), ElicitResultSchema));
    const card = page.getByRole('article', { name: 'Stays here' });
    for (const name of ['Stays here', 'Soon withdrawn', 'Filler one', 'Filler two'])
      await page.getByRole('article', { name }).waitFor();
    // On the card, its top just below the bar, where the notice will come.
    await card.focus();
    await card.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    const gap = () =>
      page.evaluate(
        () =>
          document.activeElement!.getBoundingClientRect().top -
          document.querySelector('.top-area')!.getBoundingClientRect().bottom
      );
    const before = await gap();
    assert.ok(before >= 0 && before < 20, `the card's top just below the bar (${before} px)`);
    controller.abort();
    assert.equal(await first, 'withdrawn');
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Soon withdrawn' });
    await notice.waitFor();
    await page.waitForFunction(
      () =>
        document.activeElement!.getBoundingClientRect().top >=
        document.querySelector('.top-area')!.getBoundingClientRect().bottom
    );
    assert.equal(await card.evaluate((element) => element.contains(document.activeElement)), true, 'still on the card');
    // Left as they were: the notice closed, the questions answered.
    await notice.getByRole('button', { name: /^Close/ }).click();
    for (const name of ['Stays here', 'Filler one', 'Filler two'])
      await page.getByRole('article', { name }).getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual(
      (await Promise.all([stays, ...fillers])).map((result) => result.action),
      ['accept', 'accept', 'accept']
    );
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('sends a Decline still held at once when the page goes (a reload), rather than dropping it', async () => {
    const { page } = desk;
    const asked = peer.server.request(ask('Leave now'), ElicitResultSchema);
    const card = page.getByRole('article', { name: 'Leave now' });
    await card.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.locator(`.inbox-held[data-held-id="${id}"]`).waitFor();
    assert.equal(await waiting(id), true);
    await page.reload();
    assert.equal((await asked).action, 'decline');
    assert.equal(await waiting(id), false);
    await page.locator('#heading-inbox').waitFor();
    assert.equal(await page.locator(`[data-inbox-id="${id}"]`).count(), 0);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('sends a Decline still held before a Disconnect, not counting its question as one the Disconnect withdraws', async () => {
    const { page } = desk;
    const asked = peer.server.request(ask('Before you go'), ElicitResultSchema);
    const card = page.getByRole('article', { name: 'Before you go' });
    await card.waitFor();
    const id = (await card.getAttribute('data-inbox-id'))!;
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.locator(`.inbox-held[data-held-id="${id}"]`).waitFor();
    assert.equal(await waiting(id), true);
    await page.locator('a[data-screen="servers"]').click();
    // Nothing else is under way: Disconnect asks nothing, and the Decline goes before the connection closes.
    await page.getByRole('button', { name: 'Disconnect Server a' }).click();
    assert.equal((await asked).action, 'decline');
    await page.getByRole('button', { name: 'Connect Server a' }).waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0);
    assert.equal(await waiting(id), false);
    assert.deepEqual(desk.pageErrors, []);
  });
});

/**
 * A Reject of a model request, or of a model's answer under review, is held as a Decline is, and
 * said as one: what was done, then whose and which. Undo then names what it brought back as the
 * Reject named it. After a Reject of an answer, Undo said "Brought back Server desk’s model
 * request …": the request was never what was rejected.
 */
describe('Undo after Reject of a model request or of a model’s answer in the Inbox', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;
  let peer: PeerServer;
  let page: Page;
  const closers: Array<() => Promise<unknown>> = [];
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    ({ fixture, llm, peer } = await startReviewDesk());
    // The page's clock is driven here: the undo window passes when the test says.
    const opened = await openDesk(fixture.host, built.dir, pageErrors, { beforeLoad: (at) => at.clock.install() });
    closers.push(
      () => opened.browser.close(),
      () => opened.server.close()
    );
    ({ page } = opened);
    await recordSaid(page);
  });

  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await fixture?.dispose();
    await llm?.close();
    built?.remove();
  });

  /** Asks the model request `text` (no task); resolves with its error once it was answered. */
  const ask = (text: string) =>
    peer.server.request({ method: 'sampling/createMessage', params: sampling(text) }, CreateMessageResultSchema).then(
      () => undefined,
      (error: unknown) => error
    );

  /** Rejects `id`'s card, and undoes it: what its line and the live region said. */
  async function rejectAndUndo(id: string, rejected: RegExp, broughtBack: RegExp) {
    const card = page.locator(`article[data-inbox-id="${id}"]`);
    await card.getByRole('button', { name: 'Reject' }).click();
    const line = page.locator(`.inbox-held[data-held-id="${id}"]`);
    await line.waitFor();
    assert.match(((await line.textContent()) ?? '').replace(/ Undo$/, ''), rejected);
    await saidTimes(
      page,
      new RegExp(`${rejected.source.replace(/\$$/, '')} You can undo it for 5 seconds: press u\\.$`)
    );
    await line.getByRole('button', { name: 'Undo' }).click();
    await card.waitFor();
    await saidTimes(page, broughtBack);
    // Rejected for good: it goes once its window ends.
    await card.getByRole('button', { name: 'Reject' }).click();
    await line.waitFor();
    await page.clock.fastForward(5_000);
  }

  it('says a Reject of a model request as a Decline is said, and Undo brings back the model request', async () => {
    const approval = nextEvent(fixture.host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const asked = ask('Write a limerick.');
    const { id } = (await approval).item;
    await rejectAndUndo(
      id,
      /^Rejected Server desk’s model request “Write a limerick\.”$/,
      /^Brought back Server desk’s model request “Write a limerick\.”$/
    );
    assert.match(String(await asked), /User rejected sampling request/);
    assert.deepEqual(pageErrors, []);
  });

  it('names the model’s answer as what a Reject in review rejected, and what Undo brought back', async () => {
    llm.enqueue({ kind: 'text', tokens: ['Once upon a time ', 'a dragon sold tea.'] });
    const { host } = fixture;
    const approval = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const reviewed = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-review');
    const asked = ask('Tell a story about a dragon.');
    await host.call('inbox.answer', { id: (await approval).item.id, answer: { action: 'approve' } });
    await rejectAndUndo(
      (await reviewed).item.id,
      /^Rejected the model’s answer to Server desk’s model request “Tell a story about a dragon\.”$/,
      /^Brought back the model’s answer to Server desk’s model request “Tell a story about a dragon\.”$/
    );
    assert.match(String(await asked), /User rejected sampling request/);
    assert.ok(
      !(await said(page)).some((text) => /^Brought back Server desk’s model request “Tell a story/.test(text)),
      'not the request: its answer was what was rejected'
    );
    assert.deepEqual(pageErrors, []);
  });
});
