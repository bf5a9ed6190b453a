import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { titleFromMessage } from '../../../app/assistant/assistant.js';
import { UNTITLED_CONVERSATION } from '../../../app/contract/assistant.js';
import { systemClock, type Clock } from '../../../app/core/clock.js';
import { createHost } from '../../../app/host/host.js';
import { answered, saveFakeProvider, settled, startHostOnFillableDisk } from '../../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { tempDir } from '../../support/host-fixture.js';

describe('a conversation created without a title is named by its first message', () => {
  it('takes the first line of the first message; later messages, a title given, and a refused message leave it', async () => {
    const { host, disk, dispose } = await startHostOnFillableDisk();
    try {
      const c = await host.call('assistant.create', { providerId: 'fake', model: 'fake-small' });
      assert.equal(c.title, UNTITLED_CONVERSATION);

      // A message the disk refused is taken back, and so is the title it gave.
      disk.full = true;
      await assert.rejects(
        host.call('assistant.send', { conversationId: c.id, text: 'Lost title' }),
        /could not be saved/
      );
      assert.equal((await host.call('assistant.get', { conversationId: c.id })).title, UNTITLED_CONVERSATION);
      disk.full = false;

      const sent = await host.call('assistant.send', {
        conversationId: c.id,
        text: '\n  Plan the   launch of v2\nwith every detail you know'
      });
      assert.equal(sent.title, 'Plan the launch of v2');
      await settled(host, c.id, answered);
      await host.call('assistant.send', { conversationId: c.id, text: 'Something else' });
      await settled(host, c.id, answered);
      assert.equal((await host.call('assistant.get', { conversationId: c.id })).title, 'Plan the launch of v2');
      assert.deepEqual(
        (await host.call('assistant.list', { query: 'launch' })).map((s) => s.id),
        [c.id]
      );

      const named = await host.call('assistant.create', { title: 'Mine', providerId: 'fake', model: 'fake-small' });
      await host.call('assistant.send', { conversationId: named.id, text: 'Hello' });
      assert.equal((await host.call('assistant.get', { conversationId: named.id })).title, 'Mine');
      await settled(host, named.id, answered);
    } finally {
      await dispose();
    }
  });

  it('follows the first message when it is edited and sent again; a title given stays, and so does the old one if the disk refuses', async () => {
    const { host, disk, dispose } = await startHostOnFillableDisk();
    try {
      const c = await host.call('assistant.create', { providerId: 'fake', model: 'fake-small' });
      await host.call('assistant.send', { conversationId: c.id, text: 'Please echo something' });
      const first = await settled(host, c.id, answered);
      assert.equal(first.title, 'Please echo something');
      disk.full = true;
      await assert.rejects(
        host.call('assistant.resend', {
          conversationId: c.id,
          messageId: first.messages[0]!.id,
          text: 'Lost words'
        }),
        /could not be saved/
      );
      const kept = await host.call('assistant.get', { conversationId: c.id });
      assert.equal(kept.title, 'Please echo something');
      assert.deepEqual(
        kept.messages.map((m) => m.id),
        first.messages.map((m) => m.id),
        'the messages put back'
      );
      disk.full = false;
      const resent = await host.call('assistant.resend', {
        conversationId: c.id,
        messageId: first.messages[0]!.id,
        text: 'Now tell me a story'
      });
      assert.equal(resent.title, 'Now tell me a story');
      await settled(host, c.id, answered);

      const named = await host.call('assistant.create', { title: 'Mine', providerId: 'fake', model: 'fake-small' });
      await host.call('assistant.send', { conversationId: named.id, text: 'Hello' });
      const said = await settled(host, named.id, answered);
      await host.call('assistant.resend', { conversationId: named.id, messageId: said.messages[0]!.id, text: 'Hi' });
      assert.equal((await host.call('assistant.get', { conversationId: named.id })).title, 'Mine');
      await settled(host, named.id, answered);
    } finally {
      await dispose();
    }
  });

  it('cuts a long first line at 60 characters, and a message of blank lines leaves the title as it is', () => {
    const long = 'word '.repeat(30);
    const title = titleFromMessage(long);
    assert.ok(title.length <= 60 && title.endsWith('…'), title);
    assert.equal(titleFromMessage('  \n \n'), UNTITLED_CONVERSATION);
  });
});

describe('a conversation just made', () => {
  it('reads as untouched (updated when it was made) even when the clock ticks while it is saved', async () => {
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    const data = tempDir();
    // Every reading of the clock is a millisecond later: as a slow save makes it.
    let ticks = 0;
    const clock: Clock = { ...systemClock, now: () => Date.UTC(2026, 11, 6) + ticks++ };
    const host = createHost({ dataDir: data.dir, autoConnect: false, clock });
    try {
      await saveFakeProvider(host, llm.baseURL);
      const c = await host.call('assistant.create', { providerId: 'fake', model: 'fake-small' });
      assert.equal(c.updatedAt, c.createdAt);
      assert.equal((await host.call('assistant.get', { conversationId: c.id })).updatedAt, c.createdAt);
      const [summary] = await host.call('assistant.list', {});
      assert.equal(summary?.updatedAt, c.createdAt);
    } finally {
      await host.close();
      await llm.close();
      data.remove();
    }
  });
});
