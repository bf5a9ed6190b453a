import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it, mock } from 'node:test';
import { AuditLog } from '../../app/audit/audit-log.js';
import { ManualClock } from '../support/manual-clock.js';
import { tempDir } from '../support/host-fixture.js';

describe('audit log', () => {
  let temp: ReturnType<typeof tempDir> | undefined;
  let log: AuditLog | undefined;
  afterEach(() => {
    log?.close();
    temp?.remove();
    log = temp = undefined;
  });
  const open = (options: Partial<ConstructorParameters<typeof AuditLog>[0]> = {}) => {
    temp = tempDir();
    const clock = new ManualClock();
    log = new AuditLog({ dir: path.join(temp.dir, 'audit'), clock, ...options });
    return { log, clock, dir: path.join(temp.dir, 'audit') };
  };

  it('tells its readers of entries a read or a look at its servers wrote before the turn’s flush', async () => {
    const onWritten = mock.fn();
    const { log } = open({ onWritten });
    // A window that looks at the log's servers as a server is added (its Server filter) writes the
    // entry first: the flush of the turn then finds nothing, and was the only one to tell.
    log.record({ type: 'server.added', serverId: 'new', serverName: 'New server' });
    assert.deepEqual(log.servers(), [{ serverId: 'new', serverName: 'New server' }]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(onWritten.mock.callCount(), 1, 'the readers hear of it once');
    log.record({ type: 'server.state', serverId: 'new', detail: { status: 'ready' } });
    assert.equal(log.read({ limit: 1 })[0]?.type, 'server.state');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(onWritten.mock.callCount(), 2, 'a read that wrote it tells too');
  });

  it('filters by a type or the start of several, and by words in the type, server, task or detail', async () => {
    const { log, clock } = open();
    log.record({
      type: 'task.created',
      serverId: 'a',
      serverName: 'Alpha',
      taskId: 't1',
      detail: { kind: 'sampling' }
    });
    await clock.advance(1);
    log.record({ type: 'task.cancelled', serverId: 'b', taskId: 't2', detail: { reason: 'Cancelled by the user' } });
    await clock.advance(1);
    log.record({ type: 'server.state', serverId: 'a', detail: { status: 'ready' } });
    await clock.advance(1);
    log.record({ type: 'tasks.other', serverId: 'a' });
    const types = (options: Parameters<AuditLog['read']>[0]) => log.read(options).map((entry) => entry.type);
    assert.deepEqual(types({ type: 'task' }), ['task.cancelled', 'task.created'], 'task. only, not tasks.');
    assert.deepEqual(types({ type: 'server.state' }), ['server.state']);
    assert.deepEqual(types({ text: 'CANCELLED user' }), ['task.cancelled']);
    assert.deepEqual(types({ text: 'alpha sampling' }), ['task.created']);
    assert.deepEqual(types({ text: 'ready', serverId: 'b' }), []);
  });

  it('finds an entry by the words of the sentence the Audit log shows for it, not only by its type and detail', () => {
    const { log } = open();
    log.record({
      type: 'inbox.answered',
      serverId: 'a',
      detail: { kind: 'elicitation', action: 'cancel', message: 'Which city?' }
    });
    log.record({
      type: 'inbox.answered',
      serverId: 'a',
      detail: { kind: 'elicitation', action: 'accept', message: 'Your name?' }
    });
    const found = log.read({ text: 'you dismissed' });
    assert.deepEqual(
      found.map((entry) => entry.detail?.message),
      ['Which city?'],
      'as “You dismissed a question: …” reads'
    );
  });

  it('finds an entry by its kind of event and its detail’s names in words, as well as by its ids and raw type', async () => {
    const { log, clock } = open();
    log.record({ type: 'tool.called', serverId: 'a', detail: { tool: 'echo', outcome: 'result' } });
    await clock.advance(1);
    log.record({ type: 'task.created', serverId: 'b', taskId: 't9', detail: { kind: 'elicitation', ttl: 600_000 } });
    await clock.advance(1);
    log.record({ type: 'inbox.withdrawn', serverId: 'a', detail: { kind: 'elicitation', question: 'Which city?' } });
    const types = (text: string) => log.read({ text }).map((entry) => entry.type);
    // “Tool calls”, “Tasks received”: each entry's kind in the Desk's words; the words in any order.
    assert.deepEqual(types('tool calls'), ['tool.called']);
    assert.deepEqual(types('RECEIVED tasks'), ['task.created']);
    // The detail's ttl reads “kept for” in the Audit log.
    assert.deepEqual(types('kept for'), ['task.created']);
    // The sentence, and what search found before: a server id, a task id, a raw type, a raw detail.
    assert.deepEqual(types('withdrawn before you answered'), ['inbox.withdrawn']);
    assert.deepEqual(types('city question'), ['inbox.withdrawn']);
    assert.deepEqual(types('t9'), ['task.created']);
    assert.deepEqual(types('tool.called'), ['tool.called']);
    assert.deepEqual(types('600000'), ['task.created']);
    // Every word must match, not any one of them.
    assert.deepEqual(types('tool calls city'), []);
  });

  it('finds the Desk’s typographic apostrophes by the keyboard’s, and the other way round', async () => {
    const { log, clock } = open();
    log.record({ type: 'task.result-retrieved', serverId: 'a', taskId: 't1', detail: { outcome: 'result' } });
    await clock.advance(1);
    log.record({ type: 'provider.key-cleared', detail: { providerId: 'p' } });
    const types = (text: string) => log.read({ text }).map((entry) => entry.type);
    // “The server fetched the task’s result”, searched as a person types it.
    assert.deepEqual(types("task's result"), ['task.result-retrieved']);
    assert.deepEqual(types('task’s result'), ['task.result-retrieved']);
    assert.deepEqual(types("provider's key"), ['provider.key-cleared']);
    assert.deepEqual(types('PROVIDER‘S KEY'), ['provider.key-cleared']);
  });

  it('lists the servers it has entries of, each by the name its newest entry gives, without reading the log whole', async () => {
    const { log, clock } = open();
    log.record({ type: 'server.added', serverId: 'a', serverName: 'Alpha' });
    log.record({ type: 'server.added', serverId: 'b', serverName: 'Beta' });
    log.record({ type: 'provider.saved', detail: { providerId: 'p' } });
    log.flush();
    await clock.advance(1000);
    log.record({ type: 'server.updated', serverId: 'a', serverName: 'Alpha two', detail: { changed: ['name'] } });
    log.record({ type: 'server.removed', serverId: 'b', serverName: 'Beta' });
    // An entry written with its server's id only (a policy change): the name of an older one.
    log.record({ type: 'server.added', serverId: 'c', serverName: 'Gamma' });
    log.flush();
    await clock.advance(1000);
    log.record({ type: 'sampling.policy-changed', serverId: 'c', detail: { mode: 'refuse' } });
    // Not yet written: listed all the same.
    const servers = log.servers().sort((x, y) => x.serverId.localeCompare(y.serverId));
    assert.deepEqual(servers, [
      { serverId: 'a', serverName: 'Alpha two' },
      { serverId: 'b', serverName: 'Beta' },
      { serverId: 'c', serverName: 'Gamma' }
    ]);
    // A file larger than the end that is read (64 KiB): its last whole lines, the first cut one skipped.
    for (let i = 0; i < 120; i++)
      log.record({ type: 'tool.called', serverId: 'a', serverName: 'Alpha three', detail: { note: 'x'.repeat(900) } });
    log.flush();
    assert.deepEqual(
      log.servers().find((server) => server.serverId === 'a'),
      { serverId: 'a', serverName: 'Alpha three' }
    );
  });

  it('cuts long strings to 1 KiB and notes their length', () => {
    const { log } = open();
    const id = 'x'.repeat(300 * 1024);
    log.record({ type: 'task.unknown-id', serverId: 'b', taskId: id, detail: { reason: id, fine: 'short' } });
    const [entry] = log.read();
    assert.equal(entry!.taskId!.length, 1025);
    assert.ok(entry!.taskId!.startsWith('xxxx'));
    assert.equal(entry!.detail!.fine, 'short');
    assert.equal((entry!.detail!.reason as string).length, 1025);
    assert.deepEqual(entry!.detail!.truncated, { taskId: 300 * 1024, 'detail.reason': 300 * 1024 });
  });

  it('keeps a line of a huge detail within 16 KiB', () => {
    const { log, dir } = open();
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'y'.repeat(1000)]));
    log.record({ type: 'server.state', serverId: 'a', detail: wide });
    const [entry] = log.read();
    assert.equal(entry!.type, 'server.state');
    assert.ok((entry!.detail!.truncated as Record<string, number>).detail! > 16 * 1024);
    for (const file of filesUnder(dir))
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) assert.ok(Buffer.byteLength(line) <= 16 * 1024);
  });

  it('summarizes a flood of one kind from one server in one entry', () => {
    const { log } = open();
    for (let i = 0; i < 120; i++) log.record({ type: 'task.unknown-id', serverId: 'b', taskId: `id-${i}` });
    log.record({ type: 'task.created', serverId: 'b', taskId: 'real' });
    const entries = log.read({ serverId: 'b', limit: 1000 });
    const lookups = entries.filter((entry) => entry.type === 'task.unknown-id');
    const summaries = entries.filter((entry) => entry.type === 'audit.summary');
    assert.equal(lookups.length, 20, 'the first twenty are written one by one');
    assert.equal(summaries.length, 1);
    assert.equal(summaries[0]!.detail!.of, 'task.unknown-id');
    assert.equal(summaries[0]!.detail!.count, 100);
    assert.deepEqual(summaries[0]!.detail!.sampleTaskIds, ['id-20', 'id-21', 'id-22']);
    assert.match(summaries[0]!.detail!.message as string, /100 more task\.unknown-id entries/);
    assert.ok(
      entries.some((entry) => entry.type === 'task.created'),
      'other kinds are not held back'
    );
  });

  it('cuts a summary to size as it does every entry, and counts held-back entries without their huge fields', () => {
    const { log } = open();
    const name = 'n'.repeat(5_000);
    for (let i = 0; i < 60; i++)
      log.record({
        type: 'task.unknown-id',
        serverId: 'b',
        serverName: name,
        taskId: `${i}-${'u'.repeat(500_000)}`,
        detail: { reason: 'r'.repeat(100_000) }
      });
    const [summary] = log.read({ serverId: 'b', type: 'audit.summary' });
    assert.equal(summary!.detail!.count, 40);
    assert.equal(summary!.serverName!.length, 1025);
    assert.equal((summary!.detail!.truncated as Record<string, number>).serverName, 5_000);
    assert.deepEqual(
      (summary!.detail!.sampleTaskIds as string[]).map((id) => id.length),
      [64, 64, 64]
    );
  });

  it('writes the summary of a window that is over with the next write, and starts a new one', async () => {
    const { log, clock } = open();
    for (let i = 0; i < 30; i++) log.record({ type: 'task.rate-limited', serverId: 'b' });
    await clock.advance(1500);
    log.record({ type: 'task.rate-limited', serverId: 'b' });
    log.flush();
    const summaries = log.read({ serverId: 'b' }).filter((entry) => entry.type === 'audit.summary');
    assert.deepEqual(
      summaries.map((entry) => entry.detail!.count),
      [10],
      'the first window (10 held back) is summarized; the entry 1.5 s later is written (tokens came back)'
    );
    for (let i = 0; i < 10; i++) log.record({ type: 'task.rate-limited', serverId: 'b' });
    const after = log.read({ serverId: 'b' }).filter((entry) => entry.type === 'audit.summary');
    assert.deepEqual(
      after.map((entry) => entry.detail!.count),
      [8, 10]
    );
  });

  it('gives each server its own rotation budget', () => {
    const { log, dir } = open({ maxFileBytes: 8 * 1024, maxFiles: 1 });
    log.record({ type: 'task.created', serverId: 'a', taskId: 'a-task' });
    log.record({ type: 'store.warning', detail: { message: 'host-wide' } });
    log.flush();
    for (let i = 0; i < 2000; i++) log.record({ type: `kind-${i % 50}`, serverId: 'b', detail: { n: i } });
    log.flush();
    assert.deepEqual(
      log.read({ serverId: 'a' }).map((entry) => entry.taskId),
      ['a-task']
    );
    assert.ok(log.read({ limit: 5000 }).some((entry) => entry.type === 'store.warning'));
    const bFiles = filesUnder(path.join(dir, 'servers')).filter((file) => file.includes(`${path.sep}b-`));
    assert.equal(bFiles.length, 2, 'server b rotated within its own stream: the current file and one old');
    const total = bFiles.reduce((sum, file) => sum + fs.statSync(file).size, 0);
    assert.ok(total <= 16 * 1024, `server b holds at most its budget (${total} bytes)`);
  });

  it('writes at close what was recorded and what a flood held back, and drops a later entry without a word', async () => {
    const { log, dir } = open();
    log.record({ type: 'store.warning', detail: { message: 'host-wide' } });
    for (let i = 0; i < 30; i++) log.record({ type: 'task.unknown-id', serverId: 'b', taskId: `id-${i}` });
    // A turn whose end would write them has not come: close writes them itself.
    log.close();
    const lines = filesUnder(dir).flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean));
    const types = lines.map((line) => (JSON.parse(line) as { type: string }).type);
    assert.equal(types.filter((type) => type === 'store.warning').length, 1);
    assert.equal(types.filter((type) => type === 'task.unknown-id').length, 20);
    assert.equal(types.filter((type) => type === 'audit.summary').length, 1);

    // A late event after the close, with the data directory gone meanwhile (a test's cleanup).
    const errors = mock.method(console, 'error', () => undefined);
    try {
      temp!.remove();
      log.record({ type: 'store.warning', detail: { message: 'late' } });
      log.record({ type: 'server.state', serverId: 'c', detail: { status: 'closed' } });
      await new Promise((resolve) => setImmediate(resolve));
      log.flush();
      log.close();
      assert.deepEqual(
        errors.mock.calls.map((call) => call.arguments),
        []
      );
    } finally {
      errors.mock.restore();
    }
    assert.equal(log.dropped, 2);
    assert.equal(log.failures, 0);
    assert.ok(!fs.existsSync(dir), 'the directory is not made again');
  });

  it('reads newest first across servers, and entries an earlier build wrote to audit.log', async () => {
    const { log, clock, dir } = open();
    const at = (ms: number) => new Date(Date.UTC(2025, 0, 1) + ms).toISOString();
    fs.writeFileSync(
      path.join(dir, 'audit.log'),
      `${JSON.stringify({ at: at(0), type: 'task.created', serverId: 'a', taskId: 'old' })}\n{torn\n`
    );
    log.record({ type: 'task.created', serverId: 'a', taskId: 'first' });
    await clock.advance(10);
    log.record({ type: 'task.created', serverId: 'b', taskId: 'second' });
    await clock.advance(10);
    log.record({ type: 'task.status', serverId: 'a', taskId: 'first' });
    assert.deepEqual(
      log.read().map((entry) => entry.taskId),
      ['first', 'second', 'first', 'old']
    );
    assert.deepEqual(
      log.read({ serverId: 'a' }).map((entry) => entry.taskId),
      ['first', 'first', 'old']
    );
    assert.deepEqual(
      log.read({ limit: 2 }).map((entry) => entry.taskId),
      ['first', 'second']
    );
    assert.deepEqual(
      log.read({ taskId: 'first' }).map((entry) => entry.type),
      ['task.status', 'task.created']
    );
  });
});

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
