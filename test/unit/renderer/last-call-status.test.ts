import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistorySummary } from '../../../app/contract/history.js';
import type { OutboundTaskView, PlainCallView } from '../../../app/contract/host-api.js';
import {
  callResultWords,
  callRunningWords,
  lastCallLead,
  lastCallStatus,
  laterCallRuns
} from '../../../renderer/tools/last-call-status.js';

const call = (over: Partial<HistorySummary>): HistorySummary =>
  ({ kind: 'tool-call', direction: 'requested', status: 'completed', ...over }) as HistorySummary;

describe('a tool card’s “Last called” line', () => {
  it('says how the call ended within its sentence: a first letter in lower case, a name as it is written', () => {
    assert.equal(lastCallStatus(call({})), 'completed');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'you' })), 'cancelled by you');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'taskdesk' })), 'cancelled by Taskdesk');
  });

  it('speaks of the previous call while a later call of the tool runs on its card', () => {
    const entry = { serverId: 's1', createdAt: '2026-12-06T22:30:45.000Z' };
    const plain = (over: Partial<PlainCallView>): Record<string, PlainCallView> => ({
      c1: {
        callId: 'c1',
        serverId: 's1',
        serverName: 'S',
        toolName: 'echo',
        startedAt: '2026-12-06T22:31:00.000Z',
        state: 'running',
        ...over
      }
    });
    const task = (over: Partial<OutboundTaskView>): Record<string, OutboundTaskView> => ({
      o1: {
        outboundId: 'o1',
        serverId: 's1',
        toolName: 'echo',
        createdAt: '2026-12-06T22:31:00.000Z',
        state: 'working',
        ...over
      } as OutboundTaskView
    });
    assert.equal(laterCallRuns(entry, 'echo', {}, {}), false);
    assert.equal(laterCallRuns(entry, 'echo', plain({}), {}), true);
    // Another tool, another server, or a call that started before the one History has: not later.
    assert.equal(laterCallRuns(entry, 'echo', plain({ toolName: 'add' }), {}), false);
    assert.equal(laterCallRuns(entry, 'echo', plain({ serverId: 's2' }), {}), false);
    assert.equal(laterCallRuns(entry, 'echo', plain({ startedAt: '2026-12-06T22:30:00.000Z' }), {}), false);
    assert.equal(laterCallRuns(entry, 'echo', {}, task({})), true);
    // The task History's entry is of (started at its time), or one that has ended: not later.
    assert.equal(laterCallRuns(entry, 'echo', {}, task({ createdAt: entry.createdAt })), false);
    assert.equal(laterCallRuns(entry, 'echo', {}, task({ state: 'cancelled' })), false);
    assert.equal(lastCallLead(false), 'Last called at');
    assert.equal(lastCallLead(true), 'Previous call at');
  });

  it('says a plain call’s end with its server: a result returned, or an error the tool reported, never “answered”', () => {
    assert.equal(
      callResultWords('echo', 'Server a', { content: [] } as { isError?: boolean }),
      'echo on Server a returned its result.'
    );
    assert.equal(callResultWords('echo', 'Server a', { isError: false }), 'echo on Server a returned its result.');
    assert.equal(
      callResultWords('trigger-sampling-request', 'Everything (demo)', { isError: true }),
      'trigger-sampling-request on Everything (demo) reported an error.'
    );
  });

  it('tells a call of one tool name on two servers apart by its server, as it starts too', () => {
    const name = 'trigger-elicitation-request-async';
    assert.equal(callRunningWords(name, 'Everything (demo)'), `${name} on Everything (demo) is running.`);
    assert.equal(callRunningWords(name, 'everything-local'), `${name} on everything-local is running.`);
    assert.notEqual(callResultWords(name, 'Everything (demo)', {}), callResultWords(name, 'everything-local', {}));
  });
});
