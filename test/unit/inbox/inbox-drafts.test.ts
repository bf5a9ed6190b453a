import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { INBOX_DRAFT_MAX_CHARS } from '../../../app/contract/host-api.js';
import { INBOX_DRAFTS_FILE, INBOX_DRAFTS_MAX, InboxDrafts } from '../../../app/inbox/inbox-drafts.js';
import { documentWritesLanded } from '../../../app/store/document-writer.js';
import { inboxHolds, nextEvent, peerServer, startHostWith, tempDir } from '../../support/host-fixture.js';

const question = (message: string, task = true) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
    ...(task && { task: { ttl: 3_600_000 } })
  }
});

describe('InboxDrafts, the file of what was typed into task questions', () => {
  let temp: ReturnType<typeof tempDir>;
  let corruptDir: string;
  const open = () => new InboxDrafts({ dataDir: temp.dir, corruptDir });
  const file = () => path.join(temp.dir, INBOX_DRAFTS_FILE);

  beforeEach(() => {
    temp = tempDir();
    corruptDir = path.join(temp.dir, 'corrupt');
  });
  afterEach(() => temp.remove());

  it('keeps a draft across opens, as a copy, and forgets it on null or drop', async () => {
    const drafts = open();
    const values = { name: 'Ad', seat: ['0', '2'], vegan: true };
    const kept = drafts.keep('task-1', values);
    values.name = 'changed after';
    assert.equal(await kept, true);
    assert.deepEqual(open().get('task-1'), { name: 'Ad', seat: ['0', '2'], vegan: true });
    // No temporary file is left beside it.
    assert.deepEqual(fs.readdirSync(temp.dir), [INBOX_DRAFTS_FILE]);

    assert.equal(await drafts.keep('task-1', { name: 'Ada' }), true);
    assert.equal(await drafts.keep('task-2', { name: 'Bo' }), true);
    assert.equal(await drafts.keep('task-1', null), false);
    await drafts.settled();
    assert.deepEqual(open().ids(), ['task-2']);
    drafts.drop('task-2');
    await drafts.settled();
    assert.equal(open().get('task-2'), undefined);
    // With no drafts, no file.
    assert.equal(fs.existsSync(file()), false);
  });

  it('a write queued behind one on its way is waited for as a closing host waits for document writes', async () => {
    const drafts = open();
    void drafts.keep('task-1', { name: 'first' });
    // Typed again while the first write is on its way: queued behind it.
    await Promise.resolve();
    void drafts.keep('task-1', { name: 'second' });
    drafts.close();
    await documentWritesLanded();
    assert.deepEqual(open().get('task-1'), { name: 'second' });
    // Closed: nothing more is kept or written.
    assert.equal(await drafts.keep('task-2', { name: 'late' }), false);
    drafts.drop('task-1');
    await documentWritesLanded();
    assert.deepEqual(open().ids(), ['task-1']);
  });

  it('says a draft was not kept when it was gone before its write started', async () => {
    const drafts = open();
    const kept = drafts.keep('task-1', { name: 'Ad' });
    drafts.drop('task-1');
    assert.equal(await kept, false);
    // Pushed out by newer drafts before its write: not kept either.
    const pushedOut = drafts.keep('oldest', { name: 'x' });
    for (let n = 0; n < INBOX_DRAFTS_MAX; n++) void drafts.keep(`task-${n}`, { name: String(n) });
    assert.equal(await pushedOut, false);
    assert.equal(await drafts.keep('newest', { name: 'y' }), true);
  });

  it('keeps no draft too large, and forgets the one it replaced', async () => {
    const drafts = open();
    await drafts.keep('task-1', { name: 'short' });
    assert.equal(await drafts.keep('task-1', { name: 'x'.repeat(INBOX_DRAFT_MAX_CHARS) }), false);
    await drafts.settled();
    assert.equal(open().get('task-1'), undefined);
  });

  it(`keeps at most ${INBOX_DRAFTS_MAX} drafts: the one typed into longest ago goes`, async () => {
    const drafts = open();
    for (let n = 0; n < INBOX_DRAFTS_MAX; n++) void drafts.keep(`task-${n}`, { name: String(n) });
    // Typed into again: now the latest.
    void drafts.keep('task-0', { name: 'again' });
    await drafts.keep('task-new', { name: 'new' });
    const ids = open().ids();
    assert.equal(ids.length, INBOX_DRAFTS_MAX);
    assert.equal(ids.includes('task-1'), false);
    assert.deepEqual(ids.slice(-2), ['task-0', 'task-new']);
  });

  it('prunes to the drafts whose question can come back', async () => {
    const drafts = open();
    void drafts.keep('open', { name: 'a' });
    await drafts.keep('ended', { name: 'b' });
    drafts.prune((id) => id === 'open');
    await drafts.settled();
    assert.deepEqual(open().ids(), ['open']);
  });

  for (const [what, bytes, reason] of [
    ['not JSON', '{"version":1,"drafts":[', /the file is not JSON/],
    ['JSON of another shape', '{"version":7}', /the file is not as expected/]
  ] as const) {
    it(`moves a file that is ${what} aside with a warning, and starts empty`, async () => {
      fs.writeFileSync(file(), bytes);
      const drafts = open();
      assert.match(drafts.warning?.message ?? '', reason);
      assert.match(drafts.warning?.message ?? '', /could not be read, so it is not back in their cards/);
      const movedTo = drafts.warning?.movedTo ?? '';
      assert.equal(path.dirname(movedTo), corruptDir);
      assert.equal(fs.readFileSync(movedTo, 'utf8'), bytes);
      assert.equal(fs.existsSync(file()), false);
      assert.deepEqual(drafts.ids(), []);
      // It works on: the next draft is kept.
      assert.equal(await drafts.keep('task-1', { name: 'Ada' }), true);
      assert.equal(open().warning, undefined);
    });
  }

  it('drops a stored draft too large to keep as it reads the file', () => {
    fs.writeFileSync(
      file(),
      JSON.stringify({
        version: 1,
        drafts: [
          { id: 'big', values: { name: 'x'.repeat(INBOX_DRAFT_MAX_CHARS) } },
          { id: 'small', values: { name: 'Ada' } }
        ]
      })
    );
    assert.deepEqual(open().ids(), ['small']);
  });
});

describe('inbox.keepDraft through the host, across a restart', () => {
  const temp = tempDir();
  after(() => temp.remove());

  it('brings a task question’s draft back with it, keeps none of an ordinary request, and drops it once answered', async () => {
    const peer = peerServer('drafts-peer');
    const first = await startHostWith({ desk: peer }, { dir: temp.dir });
    const { task } = await peer.server.request(question('Your name?'), CreateTaskResultSchema);
    const { task: ended } = await peer.server.request(question('Your seat?'), CreateTaskResultSchema);
    await inboxHolds(first.host, 2);
    assert.deepEqual(await first.host.call('inbox.keepDraft', { id: task.taskId, values: { name: 'Ad' } }), {
      kept: true
    });
    assert.deepEqual(await first.host.call('inbox.keepDraft', { id: ended.taskId, values: { name: '1' } }), {
      kept: true
    });
    const listed = await first.host.call('inbox.list', {});
    assert.deepEqual(listed.find((item) => item.id === task.taskId)?.keptDraft, { name: 'Ad' });

    // An ordinary question: not kept (it does not outlive a restart).
    const ordinaryAdded = nextEvent(first.host, 'inbox.added', ({ item }) => item.taskId === undefined);
    const ordinary = peer.server.request(question('Right now?', false), ElicitResultSchema);
    const { item: plain } = await ordinaryAdded;
    assert.deepEqual(await first.host.call('inbox.keepDraft', { id: plain.id, values: { name: 'x' } }), {
      kept: false
    });
    await first.host.call('inbox.answer', { id: plain.id, answer: { action: 'decline' } });
    await ordinary;

    // A task cancelled: its question is withdrawn, and its draft goes with it.
    await first.host.call('tasks.cancel', { taskId: ended.taskId });
    await documentWritesLanded();
    assert.equal(new InboxDrafts({ dataDir: temp.dir, corruptDir: temp.dir }).get(ended.taskId), undefined);
    await first.stop();

    const again = peerServer('drafts-peer');
    const second = await startHostWith({ desk: again }, { dir: temp.dir });
    await inboxHolds(second.host, 1);
    const [item] = await second.host.call('inbox.list', {});
    assert.equal(item?.id, task.taskId);
    assert.deepEqual(item?.keptDraft, { name: 'Ad' });

    await second.host.call('inbox.answer', { id: task.taskId, answer: { action: 'accept', content: { name: 'Ada' } } });
    await documentWritesLanded();
    assert.deepEqual(new InboxDrafts({ dataDir: temp.dir, corruptDir: temp.dir }).ids(), []);
    // A late write of the card just answered does not bring it back.
    assert.deepEqual(await second.host.call('inbox.keepDraft', { id: task.taskId, values: { name: 'Ada' } }), {
      kept: false
    });
    await second.dispose();
  });

  it('prunes at start the drafts of tasks that are gone', async () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir.dir, INBOX_DRAFTS_FILE),
      JSON.stringify({ version: 1, drafts: [{ id: 'no-such-task', values: { name: 'x' } }] })
    );
    const fixture = await startHostWith({}, { dir: dir.dir });
    await documentWritesLanded();
    assert.equal(fs.existsSync(path.join(dir.dir, INBOX_DRAFTS_FILE)), false);
    await fixture.dispose();
    dir.remove();
  });
});
