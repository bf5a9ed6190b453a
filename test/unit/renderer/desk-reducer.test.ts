import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  HistorySummary,
  HostEvent,
  HostEventPayload,
  InboxItem,
  OutboundTaskView,
  ServerView
} from '../../../app/contract/host-api.js';
import { deskReducer } from '../../../renderer/store/desk-reducer.js';
import { withdrawnSentence } from '../../../renderer/components/request-title.js';
import {
  initialDeskState,
  listsFreshness,
  startDraft,
  type DeskAction,
  type DeskSnapshot,
  type DeskState
} from '../../../renderer/store/desk-state.js';
import { receivedEntry, receivedTask } from '../../support/received-sampling.js';

const at = (second: number) => new Date(Date.UTC(2026, 11, 1, 9, 0, second)).toISOString();

function server(id: string, status: ServerView['state']['status'] = 'ready'): ServerView {
  return { id, name: `Server ${id}`, transport: { type: 'stdio', target: 'node x' }, state: { status } };
}

function item(id: string, extra: Partial<InboxItem> = {}): InboxItem {
  return {
    id,
    kind: 'elicitation',
    serverId: 'a',
    serverName: 'Server a',
    createdAt: at(0),
    request: { mode: 'form', message: id },
    ...extra
  };
}

function outbound(outboundId: string, updated: number, state: OutboundTaskView['state'] = 'working'): OutboundTaskView {
  return {
    outboundId,
    serverId: 'a',
    serverName: 'Server a',
    toolName: 'slow',
    arguments: {},
    requestedTtl: null,
    createdAt: at(0),
    updatedAt: at(updated),
    taskId: `t-${outboundId}`,
    state,
    task: { taskId: `t-${outboundId}`, status: 'working', createdAt: at(0), lastUpdatedAt: at(updated), ttl: null },
    expiresAt: null,
    progress: { count: 0, history: [] }
  };
}

function snapshot(extra: Partial<DeskSnapshot> = {}): DeskSnapshot {
  return {
    servers: [server('a')],
    policies: { a: { mode: 'ask', reviewCompletion: true } },
    inbox: [],
    tasks: [],
    outbound: [],
    providers: [],
    calls: [],
    conversations: [],
    ...extra
  };
}

const event = <E extends HostEvent>(name: E, payload: HostEventPayload<E>): DeskAction =>
  ({ type: 'event', event: name, payload }) as DeskAction;

const fold = (actions: DeskAction[], from: DeskState = initialDeskState) => actions.reduce(deskReducer, from);

/** The state after a first snapshot. */
function loaded(extra: Partial<DeskSnapshot> = {}): DeskState {
  return fold([
    { type: 'sync-started', syncId: 1 },
    { type: 'snapshot', syncId: 1, snapshot: snapshot(extra) }
  ]);
}

describe('the Inbox in the Desk store', () => {
  it('keeps it oldest first by when the server asked: an answer to review takes its request’s place', () => {
    const state = fold(
      [
        event('inbox.added', { item: item('t1', { kind: 'sampling-approval', createdAt: at(1) }) }),
        event('inbox.added', { item: item('q2', { createdAt: at(2) }) }),
        event('inbox.removed', { id: 't1', why: 'answered' }),
        // The model ran meanwhile: its answer comes later, with the request's own time.
        event('inbox.added', { item: item('t1', { kind: 'sampling-review', createdAt: at(1) }) }),
        event('inbox.added', { item: item('q3', { createdAt: at(2) }) })
      ],
      loaded({ inbox: [item('q0', { createdAt: at(0) })] })
    );
    assert.deepEqual(
      state.inbox.map((known) => `${known.id} ${known.kind}`),
      ['q0 elicitation', 't1 sampling-review', 'q2 elicitation', 'q3 elicitation']
    );
  });
});

describe('the Desk store reducer', () => {
  it('takes a snapshot, then folds events forward', () => {
    const state = fold(
      [
        event('inbox.added', { item: item('q2') }),
        event('inbox.added', { item: item('q1') }),
        event('inbox.removed', { id: 'q1', why: 'answered' }),
        event('task.changed', { taskId: 't2', task: receivedTask('working', 't2') }),
        event('task.changed', { taskId: 't1', task: receivedTask('completed') }),
        event('server.state', { serverId: 'a', state: { status: 'closed', reason: 'bye' } }),
        event('outbound.changed', { type: 'changed', task: outbound('o1', 5) }),
        event('policies.changed', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } }),
        event('providers.changed', {
          providers: [{ id: 'p', name: 'P', baseURL: 'http://127.0.0.1:1/v1', models: [], hasKey: false }]
        })
      ],
      loaded({ inbox: [item('q0')], tasks: [receivedTask()] })
    );
    assert.equal(state.ready, true);
    assert.deepEqual(
      state.inbox.map((i) => i.id),
      ['q0', 'q2']
    );
    assert.deepEqual(Object.keys(state.tasks).sort(), ['t1', 't2']);
    assert.equal(state.tasks.t1?.task.status, 'completed');
    assert.deepEqual(state.servers[0]?.state, { status: 'closed', reason: 'bye' });
    assert.equal(state.outbound.o1?.updatedAt, at(5));
    assert.deepEqual(state.policies.a, { mode: 'auto', reviewCompletion: false });
    assert.deepEqual(
      state.providers.map((p) => p.id),
      ['p']
    );
    assert.equal(state.sync, undefined);
  });

  it('applies every event twice without a difference (an answer and its event, a call result and its event)', () => {
    const once = fold(
      [
        event('inbox.added', { item: item('q1') }),
        event('inbox.removed', { id: 'q0', why: 'answered' }),
        event('outbound.changed', { type: 'changed', task: outbound('o1', 5) })
      ],
      loaded({ inbox: [item('q0')] })
    );
    const twice = fold(
      [
        event('inbox.added', { item: item('q1') }),
        event('inbox.removed', { id: 'q0', why: 'answered' }),
        event('outbound.changed', { type: 'changed', task: outbound('o1', 5) })
      ],
      once
    );
    assert.deepEqual(twice.inbox, once.inbox);
    assert.deepEqual(twice.outbound, once.outbound);
  });

  it('folds the events heard while a snapshot was on its way over that snapshot (a reconnect)', () => {
    let state = loaded({ inbox: [item('q0'), item('q1')], outbound: [outbound('o1', 1)] });
    state = deskReducer(state, { type: 'connection', online: false, message: 'Lost contact' });
    assert.equal(state.problem, 'Lost contact');
    state = fold(
      [
        { type: 'connection', online: true },
        { type: 'sync-started', syncId: 2 },
        // Heard after the fetch was asked for; the snapshot may or may not include them.
        event('inbox.removed', { id: 'q0', why: 'answered' }),
        event('inbox.added', { item: item('q3') }),
        event('outbound.changed', { type: 'changed', task: outbound('o1', 9, 'completed') })
      ],
      state
    );
    assert.deepEqual(
      state.inbox.map((i) => i.id),
      ['q1', 'q3'],
      'events apply at once, before the snapshot lands'
    );
    // The snapshot was taken before those events: it still has q0 and an older o1, and no q3.
    state = deskReducer(state, {
      type: 'snapshot',
      syncId: 2,
      snapshot: snapshot({ inbox: [item('q0'), item('q1'), item('q2')], outbound: [outbound('o1', 3)] })
    });
    assert.deepEqual(
      state.inbox.map((i) => i.id),
      ['q1', 'q2', 'q3'],
      'a removal that crossed the fetch is not undone'
    );
    assert.equal(state.outbound.o1?.state, 'completed', 'never back to an older view');
    assert.equal(state.problem, undefined);
    assert.equal(state.sync, undefined);
  });

  it('ignores a snapshot of an older fetch that answers after a newer one started', () => {
    let state = fold([
      { type: 'sync-started', syncId: 1 },
      { type: 'sync-started', syncId: 2 }
    ]);
    state = deskReducer(state, { type: 'snapshot', syncId: 1, snapshot: snapshot({ inbox: [item('old')] }) });
    assert.equal(state.ready, false);
    state = deskReducer(state, { type: 'snapshot', syncId: 2, snapshot: snapshot({ inbox: [item('new')] }) });
    assert.deepEqual(
      state.inbox.map((i) => i.id),
      ['new']
    );
  });

  it('tells of an ordinary request its server withdrew, once, until dismissed; not of an answered one or a task item', () => {
    let state = loaded({
      inbox: [
        item('plain', { request: { mode: 'form', message: 'Which region?' } }),
        item('answered'),
        item('of-a-task', { taskId: 'of-a-task', expiresAt: at(30) })
      ]
    });
    state = fold(
      [
        event('inbox.removed', { id: 'plain', why: 'withdrawn' }),
        event('inbox.removed', { id: 'plain', why: 'withdrawn' }),
        event('inbox.removed', { id: 'answered', why: 'answered' }),
        event('inbox.removed', { id: 'of-a-task', why: 'withdrawn' })
      ],
      state
    );
    assert.deepEqual(state.inbox, []);
    assert.deepEqual(state.withdrawn, [
      { id: 'plain', serverName: 'Server a', kind: 'elicitation', message: 'Which region?' }
    ]);
    state = deskReducer(state, { type: 'notice-dismissed', id: 'plain' });
    assert.deepEqual(state.withdrawn, []);
  });

  it('tells of a question Taskdesk withdrew because the task it was for ended, a task’s item too, with why', () => {
    let state = loaded({
      inbox: [
        item('of-a-task', { taskId: 'of-a-task', relatedTaskId: 'server-task', request: { message: 'Which topic?' } })
      ]
    });
    state = deskReducer(
      state,
      event('inbox.removed', {
        id: 'of-a-task',
        why: 'withdrawn',
        reason: 'The task this was asked for (tool research) was cancelled by you.'
      })
    );
    assert.deepEqual(state.withdrawn, [
      {
        id: 'of-a-task',
        serverName: 'Server a',
        kind: 'elicitation',
        message: 'Which topic?',
        reason: 'The task this was asked for (tool research) was cancelled by you.'
      }
    ]);
    assert.equal(
      withdrawnSentence(state.withdrawn[0]!),
      'Taskdesk withdrew Server a’s question “Which topic?”: The task this was asked for (tool research) was cancelled by you.'
    );
  });

  it('keeps what the person had typed into a withdrawn card in its notice, and forgets it once answered', () => {
    const inbox = [
      item('plain', {
        kind: 'sampling',
        request: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi?' } }] }
      }),
      item('answered'),
      item('blank'),
      // A task's own question the server withdrew: no notice, unless something was typed into it.
      item('task-typed', { taskId: 'task-typed' }),
      item('task-blank', { taskId: 'task-blank' }),
      item('mine')
    ];
    let state = fold(
      [
        { type: 'inbox-draft', id: 'task-typed', text: 'South' },
        { type: 'inbox-draft', id: 'mine', text: 'Never mind' },
        { type: 'inbox-draft', id: 'plain', text: 'Dear server,' },
        { type: 'inbox-draft', id: 'plain', text: 'Dear server,\nthe answer is 42.' },
        { type: 'inbox-draft', id: 'answered', text: 'North' },
        { type: 'inbox-draft', id: 'blank', text: 'typed, then cleared' },
        { type: 'inbox-draft', id: 'blank', text: '  ' },
        // A card no longer there keeps no draft.
        { type: 'inbox-draft', id: 'gone', text: 'late' }
      ],
      loaded({ inbox })
    );
    assert.deepEqual(state.drafts, {
      'task-typed': 'South',
      mine: 'Never mind',
      plain: 'Dear server,\nthe answer is 42.',
      answered: 'North'
    });
    state = fold(
      [
        event('inbox.removed', { id: 'answered', why: 'answered' }),
        event('inbox.removed', { id: 'plain', why: 'withdrawn' }),
        event('inbox.removed', { id: 'blank', why: 'withdrawn' }),
        event('inbox.removed', { id: 'task-typed', why: 'withdrawn' }),
        event('inbox.removed', { id: 'task-blank', why: 'withdrawn' }),
        // The person's own act withdrew it: they know, no notice (what they typed goes with it).
        event('inbox.removed', { id: 'mine', why: 'withdrawn', byYou: true })
      ],
      state
    );
    assert.deepEqual(state.drafts, {});
    assert.deepEqual(
      state.withdrawn.map((notice) => [notice.id, notice.draft]),
      [
        ['plain', 'Dear server,\nthe answer is 42.'],
        ['blank', undefined],
        ['task-typed', 'South']
      ]
    );
  });

  it('keeps what was typed into a card that went while the page heard nothing, in a notice saying so', () => {
    const state = fold(
      [
        { type: 'inbox-draft', id: 'gone', text: 'Half an answer' },
        { type: 'sync-started', syncId: 2 },
        // A reconnect: the card is not in the lists any more, and no event said why.
        { type: 'snapshot', syncId: 2, snapshot: snapshot({ inbox: [item('kept')] }) }
      ],
      loaded({ inbox: [item('gone', { request: { message: 'Which region?' } }), item('kept')] })
    );
    assert.deepEqual(state.drafts, {});
    assert.deepEqual(
      state.withdrawn.map((notice) => [notice.id, notice.offline, notice.draft]),
      [['gone', true, 'Half an answer']]
    );
    assert.equal(
      withdrawnSentence(state.withdrawn[0]!),
      'Server a’s question “Which region?” went while this page was not connected to Taskdesk (answered in another window, or withdrawn)'
    );
  });

  it('says why a card being written in went while the page heard nothing when History says, and only once', () => {
    const stopped = 'Taskdesk stopped before it was answered; the server was not answered';
    const ended = (id: string, extra: Partial<HistorySummary>) =>
      receivedEntry({ id: `request:${id}`, kind: 'elicitation', createdAt: at(Number(id.slice(1))), ...extra });
    const cards = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6'].map((id) =>
      item(id, { createdAt: at(Number(id.slice(1))), request: { message: `Question ${id}?` } })
    );
    const state = fold(
      [
        ...cards.map((card): DeskAction => ({ type: 'inbox-draft', id: card.id, text: `Typed in ${card.id}` })),
        { type: 'sync-started', syncId: 2 },
        {
          type: 'snapshot',
          syncId: 2,
          snapshot: snapshot({
            goneItems: [
              // Taskdesk's close cancelled it: its words, as the event would have said them.
              ended('q1', { status: 'cancelled', cancelledBy: 'taskdesk', statusMessage: stopped }),
              // The person cancelled the call it was for, in another window.
              ended('q2', { status: 'cancelled', cancelledBy: 'you', statusMessage: 'Its task was cancelled by you.' }),
              ended('q3', { status: 'cancelled', cancelledBy: 'server', statusMessage: 'The server cancelled it' }),
              // Answered (in another window): not a withdrawal.
              ended('q4', { status: 'completed', answer: 'accept' }),
              // Another server's request asked at the same time is not this card's.
              ended('q5', { status: 'cancelled', cancelledBy: 'taskdesk', statusMessage: stopped, serverId: 'b' })
            ]
          })
        }
      ],
      loaded({ inbox: cards })
    );
    assert.deepEqual(state.drafts, {});
    assert.deepEqual(
      state.withdrawn.map((notice) => [notice.id, withdrawnSentence(notice), notice.draft]),
      [
        ['q1', `Taskdesk withdrew Server a’s question “Question q1?”: ${stopped}`, 'Typed in q1'],
        ['q2', 'Taskdesk withdrew Server a’s question “Question q2?”: Its task was cancelled by you.', 'Typed in q2'],
        ['q3', 'Server a withdrew its question “Question q3?”', 'Typed in q3'],
        [
          'q4',
          'Server a’s question “Question q4?” went while this page was not connected to Taskdesk (answered in another window, or withdrawn)',
          'Typed in q4'
        ],
        [
          'q5',
          'Server a’s question “Question q5?” went while this page was not connected to Taskdesk (answered in another window, or withdrawn)',
          'Typed in q5'
        ],
        [
          'q6',
          'Server a’s question “Question q6?” went while this page was not connected to Taskdesk (answered in another window, or withdrawn)',
          'Typed in q6'
        ]
      ]
    );
    assert.deepEqual(
      state.withdrawn.filter((notice) => notice.reason !== undefined).map((notice) => notice.offline),
      [undefined, undefined],
      'one with a reason is not also said to be unknown'
    );
  });

  it('starts a card that mounts again from the values last typed into the item, not its older kept draft', () => {
    const question = item('q', { taskId: 'q', keptDraft: { name: 'Ada' } });
    const other = item('other', { taskId: 'other', keptDraft: { name: 'Kept' } });
    let state = loaded({ inbox: [question, other, item('plain')] });
    // Nothing typed in this page yet: the draft the host kept.
    assert.deepEqual(startDraft(state, question), { name: 'Ada' });
    state = fold(
      [
        { type: 'inbox-draft', id: 'q', values: { name: 'Ada L' } },
        { type: 'inbox-draft', id: 'q', values: { name: 'Ada Lovelace' } },
        // Emptied by the person: the kept draft does not come back either.
        { type: 'inbox-draft', id: 'other', values: null },
        { type: 'inbox-draft', id: 'plain', values: { text: 'Dear server,' } },
        // A card no longer there keeps nothing.
        { type: 'inbox-draft', id: 'gone', values: { name: 'late' } }
      ],
      state
    );
    assert.deepEqual(startDraft(state, question), { name: 'Ada Lovelace' });
    assert.equal(startDraft(state, other), undefined);
    assert.deepEqual(startDraft(state, item('plain')), { text: 'Dear server,' });
    assert.deepEqual(Object.keys(state.draftValues).sort(), ['other', 'plain', 'q']);
    // The text kept for a withdrawal's notice is told apart, and left as it was.
    assert.deepEqual(state.drafts, {});

    // A reconnect keeps those of the cards still there; an item that goes takes its own along.
    state = fold(
      [
        { type: 'sync-started', syncId: 2 },
        { type: 'snapshot', syncId: 2, snapshot: snapshot({ inbox: [question, other] }) },
        event('inbox.removed', { id: 'other', why: 'answered' })
      ],
      state
    );
    assert.deepEqual(state.draftValues, { q: { name: 'Ada Lovelace' } });
  });

  it('keeps no notice of a question Taskdesk withdrew because of what the person did (byYou)', () => {
    const inbox = [
      item('of-a-task', { taskId: 'of-a-task', relatedTaskId: 'server-task', request: { message: 'Which topic?' } })
    ];
    const state = deskReducer(
      loaded({ inbox }),
      event('inbox.removed', {
        id: 'of-a-task',
        why: 'withdrawn',
        reason: 'The task this was asked for (tool research) was cancelled by you.',
        byYou: true
      })
    );
    assert.deepEqual(state.inbox, []);
    assert.deepEqual(state.withdrawn, []);
  });

  it('tells of a question its server withdrew after the person stopped a call, in that order, blaming neither', () => {
    const inbox = [item('plain', { request: { mode: 'form', message: 'Which region?' } })];
    const state = deskReducer(
      loaded({ inbox }),
      event('inbox.removed', { id: 'plain', why: 'withdrawn', afterStoppedCall: 'report' })
    );
    assert.deepEqual(state.withdrawn, [
      { id: 'plain', serverName: 'Server a', kind: 'elicitation', message: 'Which region?', afterStoppedCall: 'report' }
    ]);
    assert.equal(
      withdrawnSentence(state.withdrawn[0]!),
      'Server a’s question “Which region?” ended after you stopped the call of report, which was running when it was asked'
    );
  });

  it('quotes what a withdrawn model request asked: the last text among its messages', () => {
    let state = loaded({
      inbox: [
        item('model', {
          kind: 'sampling-approval',
          request: {
            messages: [
              { role: 'user', content: { type: 'text', text: 'Plan the offsite' } },
              { role: 'assistant', content: { type: 'text', text: 'Which city?' } },
              { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }
            ]
          }
        })
      ]
    });
    state = deskReducer(state, event('inbox.removed', { id: 'model', why: 'withdrawn' }));
    assert.deepEqual(state.withdrawn, [
      { id: 'model', serverName: 'Server a', kind: 'sampling-approval', message: 'Which city?' }
    ]);
  });

  it('takes events for items the snapshot lacks without inventing or failing', () => {
    const before = loaded({ inbox: [item('q0')] });
    const state = fold(
      [
        event('inbox.removed', { id: 'never-seen', why: 'withdrawn' }),
        event('task.changed', { taskId: 'expired-before', task: undefined }),
        event('outbound.changed', { type: 'removed', outboundId: 'gone', serverId: 'a' }),
        event('server.state', { serverId: 'unknown', state: { status: 'ready' } }),
        event('policies.changed', { serverId: 'unknown', policy: { mode: 'refuse', reviewCompletion: true } })
      ],
      before
    );
    assert.deepEqual(state.inbox, before.inbox);
    assert.deepEqual(state.tasks, {});
    assert.deepEqual(state.outbound, {});
    assert.deepEqual(
      state.servers.map((s) => s.id),
      ['a'],
      'a server comes with servers.changed, not with its state'
    );
    assert.equal(state.policies.unknown, undefined);
    // A task the snapshot lacks but an event brings is added: it is news, not a ghost.
    const added = deskReducer(state, event('task.changed', { taskId: 't9', task: receivedTask('working', 't9') }));
    assert.deepEqual(Object.keys(added.tasks), ['t9']);
  });

  it('keeps a refused connect by its server until cleared, the server is ready, or it is removed', () => {
    const failure = { what: 'Could not connect Server a.', why: 'Sign-in could not start.' };
    const failed = deskReducer(loaded(), { type: 'connect-failed', serverId: 'a', failure });
    assert.deepEqual(failed.connectFailures, { a: failure });
    // A snapshot (a reconnect) does not drop it; a state other than ready does not either.
    const again = fold(
      [
        { type: 'sync-started', syncId: 9 },
        { type: 'snapshot', syncId: 9, snapshot: snapshot() }
      ],
      failed
    );
    assert.deepEqual(again.connectFailures, { a: failure });
    assert.deepEqual(
      deskReducer(failed, event('server.state', { serverId: 'a', state: { status: 'failed' } })).connectFailures,
      {
        a: failure
      }
    );
    assert.deepEqual(deskReducer(failed, { type: 'connect-failure-cleared', serverId: 'a' }).connectFailures, {});
    assert.deepEqual(
      deskReducer(failed, event('server.state', { serverId: 'a', state: { status: 'ready' } })).connectFailures,
      {}
    );
    assert.deepEqual(deskReducer(failed, event('servers.changed', { servers: [server('b')] })).connectFailures, {});
  });

  it('drops a removed server’s policy when the server list changes', () => {
    const state = deskReducer(loaded(), event('servers.changed', { servers: [server('b')] }));
    assert.deepEqual(
      state.servers.map((s) => s.id),
      ['b']
    );
    assert.deepEqual(state.policies, {});
  });

  it('keeps text a model is writing (and the line saying it runs) until its stream ends, its task ends, or its review arrives', () => {
    const partial = (extra: Partial<HostEventPayload<'sampling.partial'>>) =>
      event('sampling.partial', {
        serverId: 'a',
        streamId: 's1',
        providerId: 'p',
        model: 'm',
        text: 'Hel',
        ...extra
      });
    let state = fold(
      [partial({ taskId: 't1' }), partial({ streamId: 's2', text: 'plain' })],
      loaded({ tasks: [receivedTask()] })
    );
    assert.deepEqual(Object.keys(state.live).sort(), ['s2', 't1']);
    state = deskReducer(state, partial({ taskId: 't1', text: 'Hello' }));
    assert.equal(state.live.t1?.text, 'Hello');
    state = deskReducer(state, event('task.changed', { taskId: 't1', task: receivedTask('completed') }));
    assert.equal(state.live.t1, undefined, 'a finished task no longer streams');
    state = deskReducer(state, partial({ taskId: 't1', text: 'late' }));
    assert.equal(state.live.t1, undefined, 'a late update of a finished task is dropped');
    state = deskReducer(state, { type: 'inbox-answered', text: 'Approved with your edits; m is running.' });
    state = deskReducer(state, event('inbox.added', { item: item('q', { kind: 'elicitation' }) }));
    assert.equal(state.lastAnswered, 'Approved with your edits; m is running.', 'another question leaves the line');
    state = deskReducer(state, event('inbox.added', { item: item('r', { kind: 'sampling-review' }) }));
    assert.equal(state.live.s2, undefined, 'the review of a request that is not a task ends its stream');
    assert.equal(state.lastAnswered, undefined, 'and "… is running" with it: the model is done');
    state = fold([partial({ streamId: 's3' }), partial({ streamId: 's3', done: true })], state);
    assert.deepEqual(state.live, {});
  });

  it('keeps the item the Inbox line speaks of, so that two answers in the same words each link to their own task', () => {
    // The same question, asked for two tasks: the line reads the same for both.
    const said = 'Answer sent to Everything for “Which region?”.';
    let state = deskReducer(initialDeskState, {
      type: 'inbox-answered',
      text: said,
      item: { id: 'q1', serverId: 'e', relatedTaskId: 'task-1' }
    });
    assert.equal(state.answeredItem?.relatedTaskId, 'task-1');
    state = deskReducer(state, {
      type: 'inbox-answered',
      text: said,
      item: { id: 'q2', serverId: 'e', relatedTaskId: 'task-2' }
    });
    assert.equal(state.answeredItem?.relatedTaskId, 'task-2', 'the same words, another item');
    assert.equal(state.answeredItem?.said, said);
    state = deskReducer(state, { type: 'inbox-answered', text: undefined });
    assert.equal(state.answeredItem, undefined, 'the line cleared: no item');
  });

  it('takes the running plain calls from the snapshot; one that ended while it was fetched stays gone', () => {
    const call = (callId: string, state: 'running' | 'completed' = 'running') => ({
      callId,
      serverId: 'a',
      serverName: 'Server a',
      toolName: 'slow',
      startedAt: at(0),
      state
    });
    let state = fold([{ type: 'sync-started', syncId: 1 }]);
    // Heard while the snapshot was on its way: c2 ended (the snapshot, read before, still has it).
    state = deskReducer(state, event('call.changed', { call: call('c2', 'completed') }));
    state = deskReducer(state, {
      type: 'snapshot',
      syncId: 1,
      snapshot: snapshot({ calls: [call('c1'), call('c2')] })
    });
    assert.deepEqual(Object.keys(state.calls), ['c1']);
    assert.equal(state.calls.c1?.startedAt, at(0), 'the elapsed time counts from when the call started');
  });

  it('counts the audit log’s changes as the host tells them, so its screen reads it again', () => {
    const start = loaded().auditRevision;
    const state = fold(
      [
        event('audit.changed', {}),
        event('task.changed', { taskId: 't1', task: receivedTask() }),
        event('audit.changed', {}),
        event('inbox.added', { item: item('q') })
      ],
      loaded()
    );
    assert.equal(state.auditRevision, start + 2);
  });

  it('shows a host warning once, though the stream sends it at each (re)connect and a sync folds it again', () => {
    const closed = { message: 'When Taskdesk last closed (at noon), 1 question without a task was waiting…' };
    const moved = { message: 'A stored task could not be read', movedTo: '/data/corrupt/t1.json' };
    // Heard while the first snapshot was on its way (a new stream starts with the warnings).
    let state = fold([{ type: 'sync-started', syncId: 1 }, event('store.warning', closed)]);
    state = deskReducer(state, { type: 'snapshot', syncId: 1, snapshot: snapshot() });
    // The stream reconnected: the host sends its warnings again, and the Desk syncs again.
    state = fold(
      [{ type: 'sync-started', syncId: 2 }, event('store.warning', closed), event('store.warning', moved)],
      state
    );
    state = deskReducer(state, { type: 'snapshot', syncId: 2, snapshot: snapshot() });
    assert.deepEqual(state.warnings, [closed, moved]);
    // The same words about another file are another warning.
    state = deskReducer(state, event('store.warning', { ...moved, movedTo: '/data/corrupt/t2.json' }));
    assert.equal(state.warnings.length, 3);
  });

  it('tells host warnings apart by their id: the same one replayed is shown once, the same words again are shown again', () => {
    const failed = { message: 'Tasks could not be saved: disk full', id: 'w-1' };
    let state = fold([{ type: 'sync-started', syncId: 1 }, event('store.warning', failed)]);
    state = deskReducer(state, { type: 'snapshot', syncId: 1, snapshot: snapshot() });
    // The stream reconnected and replayed it (same id): still once.
    state = fold([{ type: 'sync-started', syncId: 2 }, event('store.warning', failed)], state);
    state = deskReducer(state, { type: 'snapshot', syncId: 2, snapshot: snapshot() });
    assert.deepEqual(state.warnings, [failed]);
    // The store recovered, then failed again with the same words: a new warning (new id), shown.
    const again = { ...failed, id: 'w-2' };
    state = deskReducer(state, event('store.warning', again));
    assert.deepEqual(state.warnings, [failed, again]);
    state = deskReducer(state, event('store.warning', again));
    assert.deepEqual(state.warnings, [failed, again]);
  });

  it('drops the warning a new one takes the place of', () => {
    const first = { message: 'A model request from A … failed on Local (m): first.', id: 'n-1' };
    const other = { message: 'Tasks could not be saved: disk full', id: 'w-1' };
    const second = { message: 'A model request from A … failed on Local (m): second.', id: 'n-2', replaces: 'n-1' };
    let state = fold([event('store.warning', first), event('store.warning', other), event('store.warning', second)]);
    assert.deepEqual(state.warnings, [other, second]);
    // Replayed (a new event stream), still once.
    state = deskReducer(state, event('store.warning', second));
    assert.deepEqual(state.warnings, [other, second]);
  });
});

describe('how current the Desk’s lists are (the badges and the tab’s title)', () => {
  const lost: DeskAction = { type: 'connection', online: false, message: 'Lost contact' };

  it('is out of contact while the event stream is down, and only then', () => {
    let state = deskReducer(loaded({ inbox: [item('q0')] }), lost);
    assert.equal(state.offline, true);
    assert.equal(listsFreshness(state), 'no-contact');
    // A fetch that fails meanwhile does not put "Could not load" in place of why, nor end it.
    state = fold(
      [
        { type: 'sync-started', syncId: 2 },
        { type: 'sync-failed', syncId: 2, message: 'Could not load' }
      ],
      state
    );
    assert.equal(state.problem, 'Lost contact');
    assert.equal(listsFreshness(state), 'no-contact');
    // Nor does one that answers: events are still not heard.
    state = fold(
      [
        { type: 'sync-started', syncId: 3 },
        { type: 'snapshot', syncId: 3, snapshot: snapshot() }
      ],
      state
    );
    assert.equal(state.problem, 'Lost contact');
    assert.equal(listsFreshness(state), 'no-contact');
  });

  it('is not up to date, but in contact, while the lists are fetched again on reconnect', () => {
    const state = fold([lost, { type: 'connection', online: true }, { type: 'sync-started', syncId: 2 }], loaded());
    assert.equal(state.offline, false);
    assert.equal(state.problem, undefined);
    assert.equal(listsFreshness(state), 'not-up-to-date');
    assert.equal(
      listsFreshness(deskReducer(state, { type: 'snapshot', syncId: 2, snapshot: snapshot() })),
      'current',
      'current once they are in'
    );
  });

  it('is not up to date, but in contact, when a fetch of the lists failed while events are heard', () => {
    const state = fold(
      [
        { type: 'connection', online: true },
        { type: 'sync-started', syncId: 2 },
        { type: 'sync-failed', syncId: 2, message: 'Could not load from Taskdesk: busy' }
      ],
      loaded()
    );
    assert.equal(state.offline, false);
    assert.equal(state.problem, 'Could not load from Taskdesk: busy');
    assert.equal(listsFreshness(state), 'not-up-to-date');
    // A first load that failed says so too.
    const first = fold([
      { type: 'sync-started', syncId: 1 },
      { type: 'sync-failed', syncId: 1, message: 'Could not load from Taskdesk: busy' }
    ]);
    assert.equal(listsFreshness(first), 'not-up-to-date');
  });

  it('is current when in contact and the lists are in; before the first load too (nothing is counted yet)', () => {
    assert.equal(listsFreshness(fold([{ type: 'connection', online: true }], loaded())), 'current');
    assert.equal(listsFreshness(initialDeskState), 'current');
    assert.equal(listsFreshness(fold([{ type: 'sync-started', syncId: 1 }])), 'current');
  });
});

describe('an Inbox item handed over to the model path (a provider that lists a model was saved)', () => {
  /** A request no model could run, waiting for a person's reply; `id` is its task's when `task`. */
  const reply = (id: string, second: number, task = false) =>
    item(id, {
      kind: 'sampling',
      createdAt: at(second),
      ...(task && { taskId: id }),
      request: { messages: [{ role: 'user', content: { type: 'text', text: `Ask ${id}` } }], maxTokens: 10 }
    });
  /** The card that takes its place: the same item, to approve or to write the reply for. */
  const approval = (of: InboxItem): InboxItem => ({ ...of, kind: 'sampling-approval' });
  /** What the person typed into a reply card, as the card tells the store. */
  const typed = (id: string, text: string, model = 'human'): DeskAction[] => [
    { type: 'inbox-draft', id, text },
    { type: 'inbox-draft', id, values: { reply: text, model } }
  ];
  const handedOver = (id: string) => event('inbox.removed', { id, why: 'answered', handedOver: true });

  it('keeps what was typed into the reply card for the approval card that takes its place, saying nothing', () => {
    const plain = reply('plain', 1);
    const task = reply('task', 2, true);
    let state = fold(
      [...typed('plain', 'Hello from me'), ...typed('task', 'As a task', 'mine')],
      loaded({ inbox: [plain, task, reply('blank', 3)] })
    );
    state = fold([handedOver('plain'), handedOver('task'), handedOver('blank')], state);
    // Gone from the Inbox, by nobody's doing: no notice, no withdrawal to hand the focus on from.
    assert.deepEqual(state.inbox, []);
    assert.deepEqual(state.withdrawn, []);
    assert.equal(state.lastWithdrawn, undefined);
    assert.deepEqual(state.drafts, { plain: 'Hello from me', task: 'As a task' });
    assert.deepEqual(Object.keys(state.handedOver ?? {}).sort(), ['plain', 'task']);

    state = fold(
      [
        event('inbox.added', { item: approval(plain) }),
        // The host's kept draft of a task's request is older than what this page holds.
        event('inbox.added', { item: { ...approval(task), keptDraft: { reply: 'As a', model: 'human' } } })
      ],
      state
    );
    // The approval card opens its reply form from what was typed (`restoredApproval` reads this).
    assert.deepEqual(startDraft(state, approval(plain)), { reply: 'Hello from me', model: 'human' });
    assert.deepEqual(startDraft(state, approval(task)), { reply: 'As a task', model: 'mine' });
    assert.deepEqual(state.drafts, { plain: 'Hello from me', task: 'As a task' });
    assert.equal(state.handedOver, undefined);
    assert.deepEqual(state.withdrawn, []);

    // Answered on the approval card: its draft goes as any answered card's does.
    state = fold(
      [
        event('inbox.removed', { id: 'plain', why: 'answered' }),
        event('inbox.removed', { id: 'task', why: 'answered' })
      ],
      state
    );
    assert.deepEqual(state.drafts, {});
    assert.deepEqual(state.draftValues, {});
  });

  it('forgets it when no approval card takes its place (“Run without asking”: the model answered)', () => {
    const inbox = [reply('plain', 1), reply('task', 2, true), reply('reviewed', 3, true), item('other')];
    let state = fold(
      [
        ...typed('plain', 'Unused'),
        ...typed('task', 'Unused too'),
        ...typed('reviewed', 'Unused again'),
        ...typed('other', 'Still writing')
      ],
      loaded({ inbox })
    );
    state = fold(
      [
        handedOver('plain'),
        handedOver('task'),
        handedOver('reviewed'),
        // Another request's end says nothing of these.
        event('history.changed', { entry: receivedEntry({ id: 'request:9', createdAt: at(9) }) }),
        event('task.changed', { taskId: 'elsewhere', task: receivedTask('completed', 'elsewhere') }),
        event('task.changed', { taskId: 'task', task: receivedTask('working', 'task') })
      ],
      state
    );
    assert.deepEqual(Object.keys(state.handedOver ?? {}).sort(), ['plain', 'reviewed', 'task']);
    state = fold(
      [
        // The plain request's History entry (same server, asked at the same time) says it ended.
        event('history.changed', { entry: receivedEntry({ id: 'request:1', createdAt: at(1) }) }),
        // The task's model answer went back.
        event('task.changed', { taskId: 'task', task: receivedTask('completed', 'task') }),
        // The model's answer to review comes in the place of the third: what was typed fits no review.
        event('inbox.added', { item: { ...reply('reviewed', 3, true), kind: 'sampling-review' } })
      ],
      state
    );
    assert.deepEqual(state.drafts, { other: 'Still writing' });
    assert.deepEqual(state.draftValues, { other: { reply: 'Still writing', model: 'human' } });
    assert.equal(state.handedOver, undefined);
    assert.deepEqual(state.withdrawn, []);
  });

  it('keeps it across a snapshot fetched before the hand-over; one that lacks the item forgets it', () => {
    const plain = reply('plain', 1);
    let state = fold(typed('plain', 'Crossing'), loaded({ inbox: [plain] }));
    state = fold(
      [
        { type: 'sync-started', syncId: 2 },
        handedOver('plain'),
        // Fetched before the hand-over: the hand-over heard meanwhile is folded over it again.
        { type: 'snapshot', syncId: 2, snapshot: snapshot({ inbox: [plain] }) }
      ],
      state
    );
    assert.deepEqual(state.inbox, []);
    assert.deepEqual(state.drafts, { plain: 'Crossing' });
    state = deskReducer(state, event('inbox.added', { item: approval(plain) }));
    assert.deepEqual(startDraft(state, approval(plain)), { reply: 'Crossing', model: 'human' });

    // Handed over, then a snapshot that has neither it nor a card in its place: nothing to keep it for.
    state = fold([...typed('plain', 'Lost'), handedOver('plain')], loaded({ inbox: [plain] }));
    state = fold(
      [
        { type: 'sync-started', syncId: 2 },
        { type: 'snapshot', syncId: 2, snapshot: snapshot() }
      ],
      state
    );
    assert.deepEqual(state.drafts, {});
    assert.deepEqual(state.draftValues, {});
    assert.equal(state.handedOver, undefined);
    assert.deepEqual(state.withdrawn, []);
  });
});
