import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { nextEvent, peerServer, type PeerServer } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * An ordinary request's card says how long its server may wait from what Taskdesk has seen of that
 * server: one that waited minutes for an answer before is said to, quietly, with no warning that it
 * may give up soon; one that gave up before is warned of from a little before that wait.
 */
describe('an ordinary request’s card, from what Taskdesk has seen of its server', () => {
  const clock = new ManualClock(Date.now());
  let desk: DeskFixture;
  let patient: PeerServer;
  let hasty: PeerServer;

  before(async () => {
    patient = peerServer('patient');
    hasty = peerServer('hasty');
    desk = await startDesk(
      { a: patient, b: hasty },
      // The page's time starts where the core's clock stands, and is set to it again below.
      { host: { clock }, beforeLoad: (page) => page.clock.install({ time: clock.now() }) }
    );
  });

  after(async () => {
    await desk?.close();
  });

  /** Server `peer` asks for a model reply to `text`; resolves with its card and what it gets back. */
  async function ask(peer: PeerServer, text: string, signal?: AbortSignal) {
    const added = nextEvent(desk.fixture.host, 'inbox.added', ({ item }) =>
      JSON.stringify(item.request).includes(text)
    );
    const reply = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 60 }
        },
        CreateMessageResultSchema,
        { ...(signal && { signal }), timeout: 600_000 }
      )
      .catch((error: unknown) => error);
    const { item } = await added;
    return { item, reply };
  }

  it('says a server waited up to 4 min before, and does not warn that it may give up soon', async () => {
    const { page } = desk;
    // Answered after four minutes: server a sat through that wait.
    const first = await ask(patient, 'Summarise the quarter.');
    await clock.advance(240_000);
    const told = nextEvent(desk.fixture.host, 'servers.changed');
    await desk.fixture.host.call('inbox.answer', {
      id: first.item.id,
      answer: { action: 'reply', text: 'Up 4%.', model: 'person' }
    });
    await first.reply;
    await told;

    await page.clock.setSystemTime(clock.now());
    await ask(patient, 'Summarise the year.');
    const card = page.locator('.inbox-item').filter({ hasText: 'Summarise the year.' });
    const note = card.locator('.wait-note');
    await note.getByText('Server a has waited up to 4 min for an answer before.', { exact: true }).waitFor();
    assert.equal(await note.getAttribute('class'), 'muted small-text wait-note');
    // Past the 40 s that would warn of a server nothing is known of: still said quietly.
    await page.clock.fastForward(50_000);
    await card.locator('.waiting-since', { hasText: /^waiting for 5\d s$/ }).waitFor();
    assert.equal(await note.textContent(), 'Server a has waited up to 4 min for an answer before.');
    assert.equal(await card.locator('.wait-note.banner-warning').count(), 0);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('warns of a server that gave up after 30 s before from 15 s, not 40 s', async () => {
    const { page } = desk;
    // Server b withdraws its request after 30 s, saying it timed out (as its SDK's timeout does).
    const controller = new AbortController();
    const first = await ask(hasty, 'Name the project.', controller.signal);
    await clock.advance(30_000);
    const told = nextEvent(desk.fixture.host, 'servers.changed');
    controller.abort('McpError: MCP error -32001: Request timed out');
    assert.ok((await first.reply) instanceof Error);
    await told;

    await page.clock.setSystemTime(clock.now());
    await ask(hasty, 'Name the team.');
    const card = page.locator('.inbox-item').filter({ hasText: 'Name the team.' });
    const note = card.locator('.wait-note');
    await note.getByText('Server b stopped waiting after 30 s on an earlier request.', { exact: true }).waitFor();
    assert.equal(await note.getAttribute('class'), 'muted small-text wait-note');
    await page.clock.fastForward(16_000);
    await card.locator('.wait-note.banner-warning').waitFor();
    assert.equal(
      await note.textContent(),
      '⚠ Server b stopped waiting after 30 s on an earlier request: this one may give up soon. If it does, what you wrote here stays in its notice, to copy.'
    );
    assert.deepEqual(desk.pageErrors, []);
  });
});
