import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thrownCallDetail } from '../../app/audit/tool-call-entry.js';
import { HostError, JsonRpcCode } from '../../app/core/errors.js';
import { STOPPED_WHILE_RUNNING } from '../../app/requestor/plain-calls.js';

describe('how a tool call that threw ended, for its audit entry', () => {
  it('tells a cancel by the person, a stop by Taskdesk as it closed, and a failure apart', () => {
    assert.deepEqual(thrownCallDetail(new HostError(JsonRpcCode.RequestCancelled, 'Cancelled by you')), {
      outcome: 'cancelled',
      cancelledBy: 'you'
    });
    assert.deepEqual(thrownCallDetail(new HostError(JsonRpcCode.RequestCancelled, STOPPED_WHILE_RUNNING)), {
      outcome: 'cancelled',
      cancelledBy: 'taskdesk',
      reason: STOPPED_WHILE_RUNNING
    });
    assert.deepEqual(thrownCallDetail(new Error('The server closed the connection')), {
      outcome: 'error',
      error: 'The server closed the connection'
    });
  });
});
