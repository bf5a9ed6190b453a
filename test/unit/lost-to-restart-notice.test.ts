import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostEvents } from '../../app/contract/host-api.js';
import { LostToRestartNotices, lostToRestartNotice } from '../../app/host/lost-to-restart-notice.js';

const tasksOf = (...toolNames: string[]) => toolNames.map((toolName) => ({ toolName }));

describe('the notice of the tasks a server started again no longer had', () => {
  it('names the one task by its tool, in the words its row on Tasks gives, and links Tasks', () => {
    assert.deepEqual(lostToRestartNotice('task-tools', ['work-required']), {
      message:
        'The task of work-required on task-tools was lost: task-tools was started again since the task was ' +
        'created, and kept no tasks from before. Tasks shows it as Lost.',
      links: [{ label: 'Open the Tasks screen', href: '#tasks' }]
    });
  });

  it('counts several, naming each tool once, up to three, and counting the other tools', () => {
    assert.equal(
      lostToRestartNotice('task-tools', ['work-required', 'work-required']).message,
      '2 tasks on task-tools were lost (of work-required): task-tools was started again since they were created, ' +
        'and kept no tasks from before. Tasks shows them as Lost.'
    );
    assert.match(
      lostToRestartNotice('S', ['a', 'b', 'c', 'a', 'd']).message,
      /^5 tasks on S were lost \(of a, b, c and 1 other tool\): /
    );
    assert.match(lostToRestartNotice('S', ['a', 'b', 'c', 'd', 'e']).message, /\(of a, b, c and 2 other tools\)/);
  });

  it('is one notice per server: a later loss of the same server takes the place of its notice, counted together', () => {
    const notices = new LostToRestartNotices();
    const first = notices.add({ serverId: 'a', serverName: 'Server a', tasks: tasksOf('slow') });
    assert.equal(first.replaces, undefined);
    const other = notices.add({ serverId: 'b', serverName: 'Server b', tasks: tasksOf('slow') });
    assert.equal(other.replaces, undefined, 'another server’s is its own');
    const again = notices.add({ serverId: 'a', serverName: 'Server a', tasks: tasksOf('work-required') });
    assert.equal(again.replaces, first.warning);
    assert.notEqual(again.warning.id, first.warning.id);
    assert.match(again.warning.message, /^2 tasks on Server a were lost \(of slow and work-required\): /);
  });

  it('is a host warning the contract takes, its link kept', () => {
    const { warning } = new LostToRestartNotices().add({ serverId: 'a', serverName: 'A', tasks: tasksOf('x') });
    assert.deepEqual(HostEvents['store.warning'].parse(warning), warning);
  });
});
