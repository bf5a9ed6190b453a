import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { titleFromMessage } from '../../../app/assistant/assistant.js';
import { UNTITLED_CONVERSATION } from '../../../app/contract/assistant.js';
import { answered, settled, startHostOnFillableDisk } from '../../support/assistant-fixture.js';

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

  it('cuts a long first line at 60 characters, and a message of blank lines leaves the title as it is', () => {
    const long = 'word '.repeat(30);
    const title = titleFromMessage(long);
    assert.ok(title.length <= 60 && title.endsWith('…'), title);
    assert.equal(titleFromMessage('  \n \n'), UNTITLED_CONVERSATION);
  });
});
