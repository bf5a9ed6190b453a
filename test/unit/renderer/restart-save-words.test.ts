import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { disconnectWords, restartSaveWords } from '../../../renderer/servers/disconnect-words.js';
import type { RunningWork } from '../../../renderer/servers/restart-words.js';

const work = (counts: Partial<RunningWork>): RunningWork => ({
  calls: 0,
  tasks: 0,
  questions: 0,
  modelRequests: 0,
  modelRuns: 0,
  ...counts
});

describe('what the confirmation of a Save that restarts a server says', () => {
  it('asks nothing when nothing is under way', () => {
    assert.equal(restartSaveWords('Everything', work({})), undefined);
  });

  it('says what ends as Disconnect’s confirmation does', () => {
    const under = work({ calls: 1, questions: 2 });
    assert.deepEqual(restartSaveWords('Everything', under), [
      '2 questions waiting in the Inbox will be withdrawn and 1 running call will stop.'
    ]);
    assert.deepEqual(restartSaveWords('Everything', under), disconnectWords('Everything', under));
  });

  it('says why running tasks are lost: the process started with the changes does not have them', () => {
    assert.deepEqual(restartSaveWords('Everything', work({ tasks: 1, modelRequests: 1 })), [
      '1 model request waiting in the Inbox will be withdrawn and 1 running task will be lost.',
      'Taskdesk stops Everything’s process, and the one it starts with your changes does not have its tasks.'
    ]);
  });
});
