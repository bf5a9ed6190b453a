import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cancelCallLabel, taskCardLabel } from '../../../renderer/tools/call-labels.js';

describe('what a tool call’s buttons are named by', () => {
  const startedAt = '2026-12-06T22:30:45.000Z';
  const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date(startedAt));

  it('names a tool task’s card by its tool and when it started, as a plain call’s Cancel, not by its task id', () => {
    const label = taskCardLabel({ toolName: 'work-required', createdAt: startedAt });
    assert.equal(label, `work-required task started ${time}`);
    assert.equal(
      cancelCallLabel({ toolName: 'work-required', serverName: 'jobs', startedAt }, false),
      `Cancel work-required, started ${time}`
    );
  });
});
