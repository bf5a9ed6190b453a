import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createHost } from '../../../app/host/host.js';
import { followPendingCount, pendingLabel } from '../../../main/pending-badge.js';
import { tempDir } from '../../support/host-fixture.js';

describe('the tray and dock badge follow the Inbox (through the glue interface)', () => {
  const data = tempDir('badge-');
  const host = createHost({ dataDir: data.dir, autoConnect: false });
  after(async () => {
    await host.close();
    data.remove();
  });

  it('shows the number of waiting questions as they arrive and are answered or withdrawn', async () => {
    const shown: Array<[number, string]> = [];
    const stop = followPendingCount(host, { show: (count, label) => shown.push([count, label]) });
    const base = { kind: 'elicitation' as const, serverId: 's', serverName: 'S', request: { message: 'Q' } };
    const first = host.inbox.ask({ ...base, id: 'one' }, new AbortController().signal);
    const withdraw = new AbortController();
    const second = host.inbox.ask({ ...base, id: 'two' }, withdraw.signal);
    host.inbox.answer('one', { action: 'decline' });
    await first;
    withdraw.abort(new Error('cancelled by the server'));
    await assert.rejects(second);
    stop();
    host.inbox.ask({ ...base, id: 'three' }, new AbortController().signal).catch(() => undefined);
    assert.deepEqual(shown, [
      [0, 'Nothing waiting in the Inbox'],
      [1, '1 question waiting in the Inbox'],
      [2, '2 questions waiting in the Inbox'],
      [1, '1 question waiting in the Inbox'],
      [0, 'Nothing waiting in the Inbox']
    ]);
    assert.equal(pendingLabel(12), '12 questions waiting in the Inbox');
  });
});
