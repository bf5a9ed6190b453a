import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../app/contract/host-api.js';
import { askedTtlWords } from '../../../renderer/components/ttl-granted.js';
import { waitingWords } from '../../../renderer/tools/waiting-words.js';

function item(serverId: string, kind: InboxItem['kind'], id = `${serverId}-${kind}`): InboxItem {
  return { id, kind, serverId, serverName: serverId, createdAt: '2030-01-01T10:00:00.000Z' } as InboxItem;
}

describe('what the Tools screen says about a call in words', () => {
  it('says when the server keeps a task for less time than was asked, and only then', () => {
    assert.equal(askedTtlWords(3_600_000, 300_000), ' (Taskdesk asked for 1 h)');
    assert.equal(askedTtlWords(5_400_000, 600_000), ' (Taskdesk asked for 1 h 30 min)');
    assert.equal(askedTtlWords(3_600_000, 3_600_000), undefined, 'as asked');
    assert.equal(askedTtlWords(3_600_000, 7_200_000), undefined, 'longer than asked');
    assert.equal(askedTtlWords(3_600_000, null), undefined, 'without a limit');
    assert.equal(askedTtlWords(3_600_000, undefined), undefined, 'not known');
    assert.equal(askedTtlWords(null, 300_000), undefined, 'nothing was asked for');
  });

  it('names what a server holds in the Inbox as the Tasks screen does: a question, a model request', () => {
    assert.equal(
      waitingWords('everything', 'Everything', [item('everything', 'elicitation')]),
      'Everything has a question for you in the Inbox'
    );
    for (const kind of ['sampling', 'sampling-approval', 'sampling-review'] as const)
      assert.equal(
        waitingWords('everything', 'Everything', [item('everything', kind)]),
        'Everything has a model request for you in the Inbox',
        kind
      );
    assert.equal(
      waitingWords('everything', 'Everything', [
        item('everything', 'sampling', 's1'),
        item('other', 'sampling', 's2'),
        item('everything', 'elicitation', 'e1'),
        item('everything', 'sampling-approval', 's3')
      ]),
      'Everything has a question and 2 model requests for you in the Inbox'
    );
  });

  it('says only that the server waits for the person while the Desk knows none of its Inbox items', () => {
    assert.equal(
      waitingWords('everything', 'Everything', [item('other', 'elicitation')]),
      'Everything is waiting for you in the Inbox'
    );
  });
});
