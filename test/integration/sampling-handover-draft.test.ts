import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { InboxItem } from '../../app/contract/host-api.js';
import type { Host } from '../../app/host/host.js';
import { INBOX_DRAFTS_FILE } from '../../app/inbox/inbox-drafts.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import {
  inboxHolds,
  nextEvent,
  peerServer,
  startHostWith,
  type InMemoryHostFixture,
  type PeerServer
} from '../support/host-fixture.js';

const Loose = z.looseObject({});

/** A task-augmented model request of the peer's: its task id (its Inbox item's id too). */
async function taskRequest(peer: PeerServer, text: string): Promise<string> {
  const created = await peer.server.request(
    {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text } }],
        maxTokens: 20,
        task: { ttl: 600_000 }
      }
    },
    CreateTaskResultSchema
  );
  return created.task.taskId;
}

/** The next item added to the Inbox under `id`. */
function nextAdded(host: Host, id: string): Promise<InboxItem> {
  return nextEvent(host, 'inbox.added', (p) => p.item.id === id).then((p) => p.item);
}

const provider = (llm: FakeOpenAIServer) => ({
  id: 'local',
  name: 'Local',
  baseURL: llm.baseURL,
  models: [{ name: 'fake-small' }],
  defaultModel: 'fake-small'
});

const written = { reply: 'Written in the reply card', model: 'human' };

/**
 * What a person typed into the reply card of a task's model request (kept with the host, for a
 * restart) when a provider that lists a model is saved and the request is handed over to the
 * model path: the approval card that takes its place comes with it; no other card does, and it
 * goes once the request ends without one.
 */
describe('the draft of a task’s reply card handed over to the model path', () => {
  let fixture: InMemoryHostFixture | undefined;
  let llm: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    await llm?.close();
    fixture = undefined;
    llm = undefined;
  });

  /** A host with Server a on `policy`, its task's request waiting for a reply with `written` typed into its card. */
  async function typedIntoReplyCard(policy: { mode: 'ask' | 'auto'; reviewCompletion: boolean }) {
    const peer = peerServer();
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
    const { host } = fixture;
    await host.call('sampling.setPolicy', { serverId: 'a', policy });
    const taskId = await taskRequest(peer, 'Say hi');
    await inboxHolds(host, 1);
    assert.equal(host.inbox.list()[0]!.kind, 'sampling');
    assert.deepEqual(await host.call('inbox.keepDraft', { id: taskId, values: written }), { kept: true });
    return { peer, host, taskId, llm };
  }

  /** Whether the drafts' file is there once the host has stopped (it waits for its writes). */
  async function draftsFileAfterStop(): Promise<boolean> {
    await fixture!.stop();
    return fs.existsSync(path.join(fixture!.dir, INBOX_DRAFTS_FILE));
  }

  it('under “ask”, comes with the approval card in its place, and goes once that is answered', async () => {
    const { peer, host, taskId, llm } = await typedIntoReplyCard({ mode: 'ask', reviewCompletion: false });
    const removed = nextEvent(host, 'inbox.removed', (p) => p.id === taskId);
    const added = nextAdded(host, taskId);
    await host.call('providers.save', provider(llm));
    assert.deepEqual(await removed, { id: taskId, why: 'answered', handedOver: true });
    const approval = await added;
    assert.equal(approval.kind, 'sampling-approval');
    assert.deepEqual(approval.keptDraft, written);
    assert.deepEqual(
      (await host.call('inbox.list', {})).map((item) => [item.kind, item.keptDraft]),
      [['sampling-approval', written]]
    );

    await host.call('inbox.answer', {
      id: taskId,
      answer: { action: 'reply', text: written.reply, model: written.model }
    });
    const result = await peer.server.request({ method: 'tasks/result', params: { taskId } }, Loose);
    assert.deepEqual(result.content, { type: 'text', text: written.reply });
    assert.equal(llm.chatRequests.length, 0);
    assert.equal(await draftsFileAfterStop(), false, 'answered: no draft is left');
  });

  it('under “auto”, is not used (the model answers) and goes once the task has ended', async () => {
    const { peer, host, taskId, llm } = await typedIntoReplyCard({ mode: 'auto', reviewCompletion: false });
    const completed = nextEvent(
      host,
      'task.changed',
      (p) => p.taskId === taskId && p.task?.task.status === 'completed'
    );
    llm.enqueue({ kind: 'text', tokens: ['From', ' the model'] });
    await host.call('providers.save', provider(llm));
    await completed;
    const result = await peer.server.request({ method: 'tasks/result', params: { taskId } }, Loose);
    assert.deepEqual(result.content, { type: 'text', text: 'From the model' });
    assert.equal(host.inbox.size, 0);
    assert.equal(await draftsFileAfterStop(), false, 'the request ended: no draft is left');
  });

  it('under “auto” with review, the answer to review does not come with it', async () => {
    const { host, taskId, llm } = await typedIntoReplyCard({ mode: 'auto', reviewCompletion: true });
    const review = nextAdded(host, taskId);
    llm.enqueue({ kind: 'text', tokens: ['To', ' review'] });
    await host.call('providers.save', provider(llm));
    const item = await review;
    assert.equal(item.kind, 'sampling-review');
    assert.equal(item.keptDraft, undefined);
    // Nor is it kept for it: a restart meanwhile would not bring it back there either.
    assert.equal(await draftsFileAfterStop(), false);
  });
});
