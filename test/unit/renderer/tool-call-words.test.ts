import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../app/contract/host-api.js';
import { askedTtlWords } from '../../../renderer/components/ttl-granted.js';
import { waitingHref, waitingWords } from '../../../renderer/tools/waiting-words.js';

function item(
  serverId: string,
  kind: InboxItem['kind'],
  id = `${serverId}-${kind}`,
  createdAt = '2030-01-01T10:00:00.000Z'
): InboxItem {
  return { id, kind, serverId, serverName: serverId, createdAt } as InboxItem;
}

/** A call of Everything that started when its items below were asked, or before. */
const call = { serverId: 'everything', serverName: 'Everything', startedAt: '2030-01-01T10:00:00.000Z' };

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
      waitingWords(call, [item('everything', 'elicitation')]),
      'Everything has a question for you in the Inbox'
    );
    for (const kind of ['sampling', 'sampling-approval', 'sampling-review'] as const)
      assert.equal(
        waitingWords(call, [item('everything', kind)]),
        'Everything has a model request for you in the Inbox',
        kind
      );
    assert.equal(
      waitingWords(call, [
        item('everything', 'sampling', 's1'),
        item('other', 'sampling', 's2'),
        item('everything', 'elicitation', 'e1'),
        item('everything', 'sampling-approval', 's3')
      ]),
      'Everything has a question and 2 model requests for you in the Inbox'
    );
  });

  it('says only that the server waits for the person while the Desk knows none of its Inbox items', () => {
    assert.equal(waitingWords(call, [item('other', 'elicitation')]), 'Everything is waiting for you in the Inbox');
  });

  it('names only what the server asked at or after the call started, and links to the first of it', () => {
    // The walk: a model request asked at 2:44:23 waits in the Inbox; a call that asks nothing starts later.
    const earlier = item('everything', 'sampling', 'earlier', '2030-01-01T14:44:23.000Z');
    const later = { ...call, startedAt: '2030-01-01T14:45:10.000Z' };
    assert.equal(waitingWords(later, [earlier]), undefined, 'nothing said of the earlier model request');
    assert.equal(waitingHref(later, [earlier]), '#inbox');
    // A question the server asks while the call runs is named, and the earlier request is not counted with it.
    const asked = item('everything', 'elicitation', 'asked', '2030-01-01T14:45:12.000Z');
    assert.equal(waitingWords(later, [earlier, asked]), 'Everything has a question for you in the Inbox');
    assert.equal(waitingHref(later, [earlier, asked]), '#inbox/asked');
    // Asked in the very millisecond the call started: at its start, so named.
    const atStart = item('everything', 'sampling', 'at-start', later.startedAt);
    assert.equal(waitingWords(later, [earlier, atStart]), 'Everything has a model request for you in the Inbox');
  });

  it('counts with a call only what its server asked before its next call started, nor what a tool task asked', () => {
    // The walk: trigger-sampling-request asks at once; trigger-sampling-request-async, called a
    // moment later, asks one of its own (as a task of Taskdesk's) while the first still waits.
    const first = { ...call, callId: 'plain', startedAt: '2030-01-01T10:00:00.000Z' };
    const second = { ...call, callId: 'async', startedAt: '2030-01-01T10:00:05.000Z' };
    const calls = [first, second];
    const own = item('everything', 'sampling', 'own', '2030-01-01T10:00:01.000Z');
    const theirs = { ...item('everything', 'sampling', 'theirs', '2030-01-01T10:00:06.000Z'), taskId: 'theirs' };
    const inbox = [own, theirs];
    assert.equal(waitingWords(first, inbox, calls), 'Everything has a model request for you in the Inbox');
    assert.equal(waitingHref(first, inbox, calls), '#inbox/own');
    assert.equal(waitingWords(second, inbox, calls), 'Everything has a model request for you in the Inbox');
    assert.equal(waitingHref(second, inbox, calls), '#inbox/theirs');
    // Once the later call is gone, what its server asked since is the first call's again.
    assert.equal(waitingWords(first, inbox, [first]), 'Everything has 2 model requests for you in the Inbox');
    // A call of another server does not split this one's.
    const elsewhere = { ...second, serverId: 'other' };
    assert.equal(
      waitingWords(first, inbox, [first, elsewhere]),
      'Everything has 2 model requests for you in the Inbox'
    );
    // Asked for a tool-call task (its related task): that task's, not the plain call's.
    const forTask = {
      ...item('everything', 'elicitation', 'for-task', '2030-01-01T10:00:02.000Z'),
      relatedTaskId: 't1'
    };
    assert.equal(waitingWords(first, [own, forTask], [first]), 'Everything has a model request for you in the Inbox');
  });
});
