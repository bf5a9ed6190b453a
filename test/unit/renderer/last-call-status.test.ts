import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistorySummary } from '../../../app/contract/history.js';
import type { OutboundTaskView, PlainCallView } from '../../../app/contract/host-api.js';
import {
  callResultWords,
  callRunningWords,
  lastCallLead,
  buildRunningStarts,
  lastCallStatus,
  laterCallRuns,
  runningStarts
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
    const later = (calls: Record<string, PlainCallView>, tasks: Record<string, OutboundTaskView>) =>
      laterCallRuns(entry, 'echo', buildRunningStarts(calls, tasks));
    assert.equal(later({}, {}), false);
    assert.equal(later(plain({}), {}), true);
    // Another tool, another server, or a call that started before the one History has: not later.
    assert.equal(later(plain({ toolName: 'add' }), {}), false);
    assert.equal(later(plain({ serverId: 's2' }), {}), false);
    assert.equal(later(plain({ startedAt: '2026-12-06T22:30:00.000Z' }), {}), false);
    assert.equal(later({}, task({})), true);
    // The task History's entry is of (started at its time), or one that has ended: not later.
    assert.equal(later({}, task({ createdAt: entry.createdAt })), false);
    assert.equal(later({}, task({ state: 'cancelled' })), false);
    // Of several calls of the tool running, one later is enough, whichever kind each is.
    assert.equal(later(plain({ startedAt: '2026-12-06T22:30:00.000Z' }), task({})), true);
    assert.equal(later(plain({}), task({ createdAt: '2026-12-06T22:30:00.000Z' })), true);
    // An ended task started later does not hide an earlier call that runs: neither is later.
    assert.equal(later(plain({ startedAt: '2026-12-06T22:30:00.000Z' }), task({ state: 'completed' })), false);
    assert.equal(lastCallLead(false), 'Last called at');
    assert.equal(lastCallLead(true), 'Previous call at');
  });

  it('finds the running calls once for each state, which every tool card then looks up', () => {
    const calls: Record<string, PlainCallView> = {
      c1: {
        callId: 'c1',
        serverId: 's1',
        serverName: 'S',
        toolName: 'echo',
        startedAt: '2026-12-06T22:31:00.000Z',
        state: 'running'
      }
    };
    const outbound: Record<string, OutboundTaskView> = {};
    // Two cards reading one state: one index, not a scan each.
    const first = runningStarts(calls, outbound);
    assert.equal(runningStarts(calls, outbound), first);
    assert.equal(laterCallRuns({ serverId: 's1', createdAt: '2026-12-06T22:30:00.000Z' }, 'echo', first), true);
    // The store replaces an object it changes: a new state is indexed anew.
    const ended: Record<string, PlainCallView> = {};
    const next = runningStarts(ended, outbound);
    assert.notEqual(next, first);
    assert.equal(laterCallRuns({ serverId: 's1', createdAt: '2026-12-06T22:30:00.000Z' }, 'echo', next), false);
    assert.equal(runningStarts(ended, outbound), next);
    assert.equal(runningStarts(calls, outbound), first);
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
