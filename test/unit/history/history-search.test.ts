import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEntry, HistorySummary } from '../../../app/contract/history.js';
import {
  answerOf,
  MAX_OUTCOME_SEARCH_CHARS,
  searchTextOf,
  shownStatusOf
} from '../../../app/history/history-search.js';

const base: HistoryEntry = {
  id: 'call:1',
  direction: 'requested',
  kind: 'tool-call',
  serverId: 'tools',
  serverName: 'Tools',
  title: 'Tool call: report',
  status: 'completed',
  createdAt: '2026-06-01T00:00:00.000Z',
  updatedAt: '2026-06-01T00:00:01.000Z',
  timeline: [],
  request: { name: 'report', arguments: {} }
};

function summary(entry: HistoryEntry, extra: Partial<HistorySummary> = {}): HistorySummary {
  const { timeline: _t, request: _r, ranRequest: _ran, result: _res, error: _e, ...rest } = entry;
  return { ...rest, ...extra };
}

describe('what History’s search and Status filter read of an entry', () => {
  it('says a question’s status as its row does, and a rejection as one', () => {
    const question = { kind: 'elicitation', direction: 'received', status: 'completed' } as const;
    assert.equal(shownStatusOf({ ...question, answer: 'accept' }), 'answered');
    assert.equal(shownStatusOf({ ...question, answer: 'decline' }), 'declined');
    assert.equal(shownStatusOf({ ...question, answer: 'cancel' }), 'dismissed');
    assert.equal(shownStatusOf(question), 'replied', 'an entry without an answer is no Completed row either');
    assert.equal(shownStatusOf({ ...question, status: 'expired' }), 'expired');
    assert.equal(
      shownStatusOf({ kind: 'sampling', direction: 'received', status: 'failed', rejected: true }),
      'rejected'
    );
    assert.equal(shownStatusOf({ kind: 'tool-call', direction: 'requested', status: 'completed' }), 'completed');
  });

  it('says a model request the person answered (a reply they wrote or approved) "answered", as a question’s, and one nobody answered "completed"', () => {
    const asked = { at: '2026-06-01T00:00:00.000Z', status: 'working', label: 'Asked' } as const;
    const step = (status: 'working' | 'input_required', message: string) =>
      ({ at: '2026-06-01T00:00:01.000Z', status, message }) as const;
    const end = { at: '2026-06-01T00:00:02.000Z', status: 'completed' } as const;
    const request = (timeline: HistoryEntry['timeline'], extra: Partial<HistoryEntry> = {}): HistoryEntry => ({
      ...base,
      id: 'request:1',
      kind: 'sampling',
      direction: 'received',
      title: 'Write one word.',
      result: { role: 'assistant', content: { type: 'text', text: 'Tides' }, model: 'human' },
      timeline,
      ...extra
    });
    const waiting = step('input_required', 'Waiting for your answer in the Inbox');
    const approve = step(
      'input_required',
      'Waiting for your answer in the Inbox: approve a sampling request from Books'
    );
    const approved = step('working', 'Approved by you; fake-small is writing the answer.');
    const review = step('input_required', 'Waiting for your answer in the Inbox: review the answer for Books');
    const cases: Array<[string, HistoryEntry, string]> = [
      ['a reply written in the Inbox', request([asked, waiting, end]), 'answered'],
      ['a reply written on the approval card', request([asked, approve, end]), 'answered'],
      ['a request approved, the model then writing', request([asked, approve, approved, end]), 'answered'],
      [
        'a run tried again after it failed',
        request([
          asked,
          approve,
          step('working', 'Tried again by you with your changes; m is writing the answer.'),
          end
        ]),
        'answered'
      ],
      ['a model’s answer approved on review', request([asked, approve, approved, review, end]), 'answered'],
      [
        'a task whose reply the person wrote',
        request([step('working', 'Taskdesk is working on the request.'), step('working', waiting.message), end], {
          id: 'received:t1',
          taskId: 't1'
        }),
        'answered'
      ],
      ['a request run with nobody asked', request([asked, end]), 'completed'],
      // Kept on the entry since its runner's note (see `answeredByYou`), whatever its steps say.
      ['an entry that keeps the person’s answer', request([asked, end], { answer: 'accept' }), 'answered'],
      [
        'a request handed to a model set up while it waited',
        request([asked, waiting, step('working', 'Taskdesk is working on the request.'), end]),
        'completed'
      ],
      [
        'a request the person rejected',
        request([asked, approve, { ...end, status: 'failed' }], {
          status: 'failed',
          rejected: true,
          result: undefined
        }),
        'rejected'
      ]
    ];
    for (const [what, entry, shown] of cases) {
      const found = summary(entry, answerOf(entry));
      assert.equal(shownStatusOf(found), shown, what);
      // The search finds it by its badge's word.
      assert.equal(searchTextOf(entry, found).includes('answered'), shown === 'answered', what);
    }
    // A question's answer is its result's action, as before.
    const question = { ...base, kind: 'elicitation', direction: 'received', result: { action: 'decline' } } as const;
    assert.deepEqual(answerOf(question), { answer: 'decline' });
    assert.deepEqual(answerOf({ ...base, direction: 'received' }), {}, 'a tool call has none');
  });

  it('holds the start of a long result only, and the start of one too large to keep whole', () => {
    const long = `${'a'.repeat(MAX_OUTCOME_SEARCH_CHARS - 10)} Findable ${'b'.repeat(20_000)} Hidden`;
    const entry = { ...base, result: { content: [{ type: 'text', text: long }] } };
    const text = searchTextOf(entry, summary(entry));
    assert.ok(text.includes('findable'));
    assert.ok(!text.includes('hidden'), 'past the bound');
    assert.ok(text.length < MAX_OUTCOME_SEARCH_CHARS + 500, `bounded: ${text.length}`);
    const truncated = {
      ...base,
      result: { truncated: true as const, bytes: 900_000, preview: '{"content":[{"type":"text","text":"Quarterly' }
    };
    assert.ok(searchTextOf(truncated, summary(truncated)).includes('quarterly'));
  });

  it('reads a model reply given as a list of blocks, and an answer’s list values', () => {
    const reply = {
      ...base,
      kind: 'sampling' as const,
      direction: 'received' as const,
      result: { role: 'assistant', content: [{ type: 'text', text: 'Tides are Rising' }], model: 'm' }
    };
    assert.ok(searchTextOf(reply, summary(reply)).includes('tides are rising'));
    const answer = {
      ...base,
      kind: 'elicitation' as const,
      direction: 'received' as const,
      result: { action: 'accept', content: { cities: ['Oslo', 'Lima'], seats: 3, window: true } }
    };
    const text = searchTextOf(answer, summary(answer, { answer: 'accept' }));
    for (const word of ['oslo', 'lima', '3', 'true', 'answered']) assert.ok(text.includes(word), word);
  });

  it('finds a model answer the person rejected by its text, as its detail shows it under "Rejected answer"', () => {
    const rejected: HistoryEntry = {
      ...base,
      kind: 'sampling',
      direction: 'received',
      status: 'failed',
      statusMessage: 'You rejected the model’s answer; its server did not get it.',
      rejectedAnswer: { role: 'assistant', content: { type: 'text', text: 'Moonlit Harbour' }, model: 'm' },
      error: { code: -1, message: 'User rejected sampling request' }
    };
    assert.ok(searchTextOf(rejected, summary(rejected, { rejected: true })).includes('moonlit harbour'));
    const truncated: HistoryEntry = {
      ...rejected,
      rejectedAnswer: { truncated: true, bytes: 900_000, preview: '{"role":"assistant","content":{"text":"Lagoon' }
    };
    assert.ok(searchTextOf(truncated, summary(truncated, { rejected: true })).includes('lagoon'));
  });
});

describe('History’s search finds the words its rows and details show', () => {
  const question = (content: Record<string, unknown>, requestedSchema: Record<string, unknown>): HistoryEntry => ({
    ...base,
    id: 'received:q1',
    kind: 'elicitation',
    direction: 'received',
    title: 'Where should it go?',
    request: { mode: 'form', message: 'Where should it go?', requestedSchema },
    result: { action: 'accept', content }
  });

  it('finds an answer by an option’s title and by Yes or No, as its detail shows them, and by its raw values too', () => {
    const entry = question(
      { env: 'prod', confirm: true, notify: false, regions: ['eu', 'us'], tier: 'gold', count: 2 },
      {
        type: 'object',
        properties: {
          env: {
            type: 'string',
            title: 'Environment',
            oneOf: [
              { const: 'prod', title: 'Production' },
              { const: 'stage', title: 'Staging' }
            ]
          },
          confirm: { type: 'boolean', title: 'Confirm' },
          notify: { type: 'boolean' },
          regions: {
            type: 'array',
            items: {
              anyOf: [
                { const: 'eu', title: 'Europe' },
                { const: 'us', title: 'United States' }
              ]
            }
          },
          // The legacy way of titling options.
          tier: { type: 'string', enum: ['gold', 'silver'], enumNames: ['Gold plan', 'Silver plan'] },
          count: { type: 'integer', title: 'Copies' }
        }
      }
    );
    const text = searchTextOf(entry, summary(entry, { answer: 'accept' }));
    const words = new Set(text.split(/\s+/));
    for (const word of ['production', 'yes', 'no', 'europe', 'gold', 'environment', 'copies'])
      assert.ok(words.has(word), word);
    assert.ok(text.includes('united states') && text.includes('gold plan'));
    for (const raw of ['prod', 'true', 'false', 'eu', 'us', 'gold', '2']) assert.ok(words.has(raw), raw);
    // An option the answer did not pick is no word of it.
    assert.ok(!text.includes('staging'), 'not answered');
    assert.ok(!text.includes('silver'), 'not answered');
  });

  it('finds an answer whose request was too large to keep by its raw values', () => {
    const entry = {
      ...question({ env: 'prod', confirm: true }, {}),
      request: { truncated: true as const, bytes: 90_000, preview: '{"mode":"form"' }
    };
    const words = new Set(searchTextOf(entry, summary(entry, { answer: 'accept' })).split(/\s+/));
    for (const word of ['prod', 'true', 'yes']) assert.ok(words.has(word), word);
  });

  it('finds the words of a row’s badge and meta line: who cancelled it, "changed by you", "Waiting for you"', () => {
    const cancelled = (cancelledBy?: 'you' | 'server' | 'taskdesk') => {
      const entry = { ...base, status: 'cancelled' as const, ...(cancelledBy && { cancelledBy }) };
      return searchTextOf(entry, summary(entry));
    };
    assert.ok(cancelled('server').includes('cancelled by the server'));
    assert.ok(!cancelled('server').includes('cancelled by you'));
    assert.ok(cancelled('you').includes('cancelled by you'));
    assert.ok(cancelled('taskdesk').includes('cancelled by taskdesk'));
    assert.ok(cancelled().includes('cancelled'));

    const sampling: HistoryEntry = {
      ...base,
      id: 'received:s1',
      kind: 'sampling',
      direction: 'received',
      title: 'Summarise the week',
      status: 'completed',
      request: { messages: [], maxTokens: 10 },
      ranRequest: { messages: [], maxTokens: 20 }
    };
    assert.ok(searchTextOf(sampling, summary(sampling, { edited: true })).includes('changed by you'));
    assert.ok(!searchTextOf(sampling, summary(sampling)).includes('changed by you'));

    const waiting = { ...sampling, status: 'working' as const };
    const text = searchTextOf(waiting, summary(waiting, { waitsOnYou: true }));
    assert.ok(text.includes('waiting for you'));
    assert.ok(text.includes('working'), 'its protocol status too, as the Tasks search finds it');
    assert.ok(!searchTextOf(waiting, summary(waiting)).includes('waiting for you'));
  });

  it('finds a question or model request by the call its row says it was asked for or while', () => {
    const question: HistoryEntry = {
      ...base,
      id: 'received:q1',
      kind: 'elicitation',
      direction: 'received',
      title: 'Which city?',
      request: { mode: 'form', message: 'Which city?', requestedSchema: { type: 'object', properties: {} } }
    };
    const asked = searchTextOf(question, summary(question, { forCall: { tool: 'lookup', how: 'for' } }));
    assert.ok(asked.includes('for the call of lookup'));
    assert.ok(!asked.includes('while'), 'words its row does not show');
    const during = searchTextOf(question, summary(question, { forCall: { tool: 'Lookup', how: 'while' } }));
    assert.ok(during.includes('while the call of lookup ran'), 'folded as the search words are');
    assert.ok(!searchTextOf(question, summary(question)).includes('lookup'), 'a row that names no call');
  });
});
