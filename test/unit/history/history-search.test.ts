import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEntry, HistorySummary } from '../../../app/contract/history.js';
import { MAX_OUTCOME_SEARCH_CHARS, searchTextOf, shownStatusOf } from '../../../app/history/history-search.js';

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
});
