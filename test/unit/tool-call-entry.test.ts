import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { thrownCallDetail } from '../../app/audit/tool-call-entry.js';
import { HostError, JsonRpcCode } from '../../app/core/errors.js';
import { STOPPED_WHILE_RUNNING, TaskdeskCancelled } from '../../app/requestor/plain-calls.js';

describe('how a tool call that threw ended, for its audit entry', () => {
  it('tells a cancel by the person, a stop by Taskdesk as it closed, and a failure apart', () => {
    assert.deepEqual(thrownCallDetail(new TaskdeskCancelled('you')), { outcome: 'cancelled', cancelledBy: 'you' });
    assert.deepEqual(thrownCallDetail(new TaskdeskCancelled('taskdesk')), {
      outcome: 'cancelled',
      cancelledBy: 'taskdesk',
      reason: STOPPED_WHILE_RUNNING
    });
    assert.deepEqual(thrownCallDetail(new Error('The server closed the connection')), {
      outcome: 'error',
      error: 'The server closed the connection'
    });
  });

  it('says a −32800 the server answered with on its own failed, in its words, whatever they are', () => {
    // Taskdesk's own ends are known by what they are: the same code and words from a server are its own.
    for (const error of [
      new HostError(JsonRpcCode.RequestCancelled, 'The job queue was drained'),
      new HostError(JsonRpcCode.RequestCancelled, 'Cancelled by you'),
      new McpError(JsonRpcCode.RequestCancelled, STOPPED_WHILE_RUNNING)
    ]) {
      const detail = thrownCallDetail(error);
      assert.equal(detail.outcome, 'error');
      assert.equal(detail.cancelledBy, undefined);
      assert.match(String(detail.error), error instanceof McpError ? /Taskdesk stopped/ : new RegExp(error.message));
    }
  });
});
