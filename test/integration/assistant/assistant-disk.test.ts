import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answered, settled, startHostOnFillableDisk } from '../../support/assistant-fixture.js';

describe('assistant on a disk that refuses writes', () => {
  it('a message that could not be saved is refused and taken back, and the model is not asked; it works again once the disk does', async () => {
    const { host, llm, disk, dispose } = await startHostOnFillableDisk();
    try {
      const c = await host.call('assistant.create', { title: 'Full disk', providerId: 'fake', model: 'fake-small' });

      disk.full = true;
      await assert.rejects(host.call('assistant.send', { conversationId: c.id, text: 'Lost?' }), /could not be saved/);
      const after = await host.call('assistant.get', { conversationId: c.id });
      assert.deepEqual(after.messages, [], 'the refused message is not kept as if it were sent');
      assert.equal(after.status, 'idle');
      assert.equal(llm.chatRequests.length, 0, 'the model was not asked for a message that is not on disk');

      disk.full = false;
      llm.enqueue({ kind: 'text', tokens: ['Saved ', 'now.'] });
      await host.call('assistant.send', { conversationId: c.id, text: 'And now?' });
      const done = await settled(host, c.id, answered);
      assert.deepEqual(
        done.messages.map((m) => m.role),
        ['user', 'assistant']
      );
      assert.equal(llm.chatRequests.length, 1);
    } finally {
      await dispose();
    }
  });
});
