import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Host } from '../../app/host/host.js';
import { type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { startMrtrHost } from '../support/mrtr-host.js';

/**
 * A model request a server asks during one of Taskdesk's tool calls (a multi round-trip request
 * to the v2 server over stdio, test/support/mrtr-server.ts): its audit entries name the tool, as
 * its Inbox item does, through the host's own lookup.
 */

describe('the origin of a model request in the host’s audit log', () => {
  let host: Host;
  let llm: FakeOpenAIServer;
  const data = tempDir();

  before(async () => {
    ({ host, llm } = await startMrtrHost(data.dir));
  });

  after(async () => {
    await host.close();
    await llm.close();
    data.remove();
  });

  /** The server's `sampling.*` entries, oldest first, as type, decision, origin and relatedCall. */
  function samplingEntries() {
    host.audit.flush();
    return host.audit
      .read({ serverId: 'mrtr', limit: 100 })
      .filter((entry) => entry.type.startsWith('sampling.') && entry.detail?.decision !== undefined)
      .reverse()
      .map((entry) => [entry.type, entry.detail?.decision, entry.detail?.origin, entry.detail?.relatedCall]);
  }

  it('names the tool call it came from on each entry, without asking and after a person’s approval', async () => {
    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'auto', reviewCompletion: false } });
    llm.enqueue({ kind: 'text', tokens: ['Blue'] });
    const auto = await host.call('tools.call', { serverId: 'mrtr', name: 'draft', arguments: {} });
    assert.equal(auto.type, 'result');

    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'ask', reviewCompletion: true } });
    llm.enqueue({ kind: 'text', tokens: ['Green'] });
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const calling = host.call('tools.call', { serverId: 'mrtr', name: 'draft', arguments: {} });
    const approval = await asked;
    const reviewed = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-review');
    await host.call('inbox.answer', { id: approval.item.id, answer: { action: 'approve' } });
    const review = await reviewed;
    await host.call('inbox.answer', { id: review.item.id, answer: { action: 'approve' } });
    assert.equal((await calling).type, 'result');

    assert.deepEqual(samplingEntries(), [
      ['sampling.request', 'auto-approved', 'tool draft', true],
      ['sampling.llm', 'completed', 'tool draft', true],
      ['sampling.request', 'approved', 'tool draft', true],
      ['sampling.llm', 'completed', 'tool draft', true],
      ['sampling.completion', 'approved', 'tool draft', true]
    ]);
  });
});
