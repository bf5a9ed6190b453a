import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverErrorText, errorWords } from '../../../app/contract/error-words.js';
import { errorLineOf } from '../../../app/history/history-values.js';
import { outcomeSummary } from '../../../renderer/tasks/outcome-summary.js';
import type { InboundTask } from '../../../app/contract/host-api.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { toErrorData } from '../../../app/core/errors.js';
import { taskEndNotice, type EndedTask } from '../../../app/contract/task-end-words.js';

/** An error as a server written with the MCP SDK sends it, and as the SDK's client wraps it again. */
const wrapped = { code: -32050, message: 'MCP error -32050: MCP error -32050: Upstream quota exhausted' };

describe('an error in words', () => {
  it('says the code once: the SDK’s lead of the same code is left out of the message', () => {
    assert.equal(serverErrorText(wrapped), 'Upstream quota exhausted');
    assert.equal(errorWords(wrapped), 'Error -32050: Upstream quota exhausted');
    assert.equal(errorWords({ code: -32000, message: 'Quota exceeded' }), 'Error -32000: Quota exceeded');
  });

  it('keeps another code’s lead, which is part of what the server said, and a lead that is the whole message', () => {
    assert.equal(
      errorWords({ code: -32000, message: 'MCP error -32001: late' }),
      'Error -32000: MCP error -32001: late'
    );
    assert.equal(errorWords({ code: -32000, message: 'MCP error -32000: ' }), 'Error -32000: MCP error -32000: ');
  });

  it('is how History’s row and the Tasks row say a failed call’s and a received task’s error', () => {
    assert.equal(
      errorLineOf({ id: 'call:1', status: 'failed', error: wrapped }),
      'Error -32050: Upstream quota exhausted'
    );
    const inbound = {
      kind: 'elicitation',
      task: { status: 'failed' },
      outcome: { type: 'error', error: wrapped }
    } as unknown as InboundTask;
    assert.equal(outcomeSummary(inbound), 'Error -32050: Upstream quota exhausted');
  });

  it('is how an error is stored: an McpError of a server’s McpError keeps the server’s words alone', () => {
    // The server's message holds its own McpError's lead, and the SDK's client wraps it again.
    const received = new McpError(-32050, 'MCP error -32050: Upstream quota exhausted', { retryAfterS: 60 });
    assert.equal(received.message, 'MCP error -32050: MCP error -32050: Upstream quota exhausted');
    assert.deepEqual(toErrorData(received), {
      code: -32050,
      message: 'Upstream quota exhausted',
      data: { retryAfterS: 60 }
    });
  });

  it('is how the notice of a task that failed says its error, a record stored before included', () => {
    const task: EndedTask = {
      toolName: 'report',
      serverName: 'Books',
      state: 'failed',
      task: {},
      outcome: { type: 'error', error: wrapped }
    };
    assert.deepEqual(taskEndNotice(task), { title: 'report on Books failed', body: 'Upstream quota exhausted' });
  });
});
