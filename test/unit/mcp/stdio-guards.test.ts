import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describeIssues, topLevelFields } from '../../../app/mcp/jsonrpc-checks.js';
import {
  BYTES_PER_TURN,
  LARGE_LINE_BYTES,
  JsonRpcLineReader,
  LINES_PER_TURN,
  defaultLineReaderLimits
} from '../../../app/mcp/line-reader.js';
import { requestRefusal } from '../../../app/mcp/request-gate.js';
import { BoundedWriteQueue } from '../../../app/mcp/write-queue.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A pipe whose reader never reads: it takes `capacity` bytes, then every write is refused until `drain()`. */
class DeafPipe extends Writable {
  readonly taken: string[] = [];
  #release: Array<() => void> = [];
  constructor(capacity: number) {
    super({ highWaterMark: capacity, decodeStrings: false });
  }
  override _write(chunk: string, _encoding: BufferEncoding, callback: () => void): void {
    this.taken.push(chunk);
    this.#release.push(callback);
  }
  /** The reader reads everything it was given. */
  readAll(): void {
    for (const release of this.#release.splice(0)) release();
  }
}

function reader(maxLineBytes = 1024) {
  const replies: JSONRPCMessage[] = [];
  let backlogs = 0;
  const r = new JsonRpcLineReader(
    { ...defaultLineReaderLimits, maxLineBytes, maxDepth: 8 },
    { reply: (m) => replies.push(m), dropped: () => undefined, backlog: () => backlogs++ }
  );
  const drain = () => {
    const out: JSONRPCMessage[] = [];
    for (let m = r.readMessage(); m !== null; m = r.readMessage()) out.push(m);
    return out;
  };
  return { r, replies, drain, backlogs: () => backlogs };
}

describe('bounded write queue', () => {
  it('waits for the pipe with one drain listener, bounds what waits, and overflows once', async () => {
    const pipe = new DeafPipe(100);
    const reasons: string[] = [];
    const queue = new BoundedWriteQueue(pipe, { maxQueuedBytes: 1_000, maxQueuedMessages: 5 }, (why) =>
      reasons.push(why)
    );
    const line = `${'x'.repeat(99)}\n`;
    const write = () =>
      queue.write(line).then(
        () => 'written',
        () => 'refused'
      );
    // One goes to the pipe (which fills), five wait, with one listener for them all.
    const writes = Array.from({ length: 6 }, write);
    assert.equal(pipe.listenerCount('drain'), 1);
    assert.equal(reasons.length, 0);
    writes.push(...Array.from({ length: 4 }, write));
    assert.equal(pipe.listenerCount('drain'), 0, 'a dropped queue waits for nothing');
    assert.equal(reasons.length, 1);
    assert.match(reasons[0]!, /5 messages to it were waiting \(limit 5\)/);
    assert.ok(queue.stats.peakQueuedMessages <= 5);
    const outcomes = await Promise.all(writes);
    assert.equal(outcomes.filter((o) => o === 'refused').length, 4);
    await assert.rejects(queue.write(line), /stopped reading/);
  });

  it('hands everything waiting to the pipe in order once it drains', async () => {
    const pipe = new DeafPipe(10);
    const queue = new BoundedWriteQueue(pipe, { maxQueuedBytes: 1_000, maxQueuedMessages: 100 }, () => assert.fail());
    const writes = ['a\n', 'b\n', 'c\n', 'd\n'].map((chunk) => queue.write(chunk));
    for (let round = 0; round < 20 && pipe.taken.length < 4; round++) {
      pipe.readAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    pipe.readAll();
    await Promise.all(writes);
    assert.deepEqual(pipe.taken, ['a\n', 'b\n', 'c\n', 'd\n']);
    assert.equal(pipe.listenerCount('drain'), 0);
  });
});

describe('line reader', () => {
  it('reads at most LINES_PER_TURN lines a turn and asks for a later one', () => {
    const { r, drain, backlogs } = reader();
    const lines = Array.from({ length: LINES_PER_TURN + 10 }, (_, i) => `{"jsonrpc":"2.0","method":"n/${i}"}\n`);
    r.append(Buffer.from(lines.join('')));
    assert.equal(drain().length, LINES_PER_TURN);
    assert.equal(backlogs(), 1);
    r.nextTurn();
    assert.equal(drain().length, 10);
  });

  it('reads at most BYTES_PER_TURN of lines a turn, and the rest on later turns', () => {
    const { r, drain, backlogs } = reader(4 * BYTES_PER_TURN);
    // Lines just under LARGE_LINE_BYTES (a large one has turns of its own, see below).
    const bytes = LARGE_LINE_BYTES - 1024;
    const line = (i: number) =>
      `${JSON.stringify({ jsonrpc: '2.0', method: `n/${i}`, params: { pad: 'p'.repeat(bytes) } })}\n`;
    const perTurn = Math.ceil(BYTES_PER_TURN / Buffer.byteLength(line(10)));
    r.append(Buffer.from(Array.from({ length: perTurn + 3 }, (_, i) => line(i + 10)).join('')));
    assert.equal(drain().length, perTurn);
    assert.equal(backlogs(), 1);
    r.nextTurn();
    assert.equal(drain().length, 3);
    assert.equal(backlogs(), 1);
  });

  it('decodes a large line only on a turn after the data event it came in, parses it on the next and delivers it on the one after, the lines after it waiting', () => {
    const { r, drain, backlogs } = reader(4 * BYTES_PER_TURN);
    const line = (i: number, bytes: number) =>
      `${JSON.stringify({ jsonrpc: '2.0', method: `n/${i}`, params: { pad: 'p'.repeat(bytes) } })}\n`;
    const realParse = JSON.parse;
    let largeParses = 0;
    JSON.parse = ((text: string, reviver?: Parameters<typeof realParse>[1]) => {
      if (typeof text === 'string' && text.length >= LARGE_LINE_BYTES) largeParses++;
      return realParse(text, reviver);
    }) as typeof JSON.parse;
    try {
      const methods = () => drain().map((m) => (m as { method?: string }).method);
      r.append(Buffer.from([line(0, 10), line(1, 500_000), line(2, 10), line(3, 300_000), line(4, 10)].join('')));
      // The data event's turn: the small line before the large one only.
      assert.deepEqual(methods(), ['n/0']);
      assert.deepEqual([largeParses, backlogs(), r.waiting], [0, 1, 4]);
      // A data event meanwhile gives no large line a turn either (nor the small one behind it).
      r.append(Buffer.from(line(5, 10)));
      assert.deepEqual(methods(), []);
      assert.equal(largeParses, 0);
      r.nextTurn();
      assert.deepEqual(methods(), [], 'decoded, and held for the next turn');
      assert.deepEqual([largeParses, backlogs(), r.waiting], [0, 3, 5]);
      r.nextTurn();
      assert.deepEqual(methods(), [], 'parsed, and held for the next turn');
      assert.deepEqual([largeParses, backlogs(), r.waiting], [1, 4, 5]);
      r.nextTurn();
      assert.deepEqual(methods(), ['n/1', 'n/2'], 'delivered first, then the small lines up to the next large one');
      assert.equal(largeParses, 1, 'one large line a turn');
      r.nextTurn();
      assert.deepEqual(methods(), []);
      r.nextTurn();
      assert.deepEqual(methods(), []);
      assert.equal(largeParses, 2);
      r.nextTurn();
      assert.deepEqual(methods(), ['n/3', 'n/4', 'n/5']);
      assert.deepEqual([largeParses, r.waiting], [2, 0]);
    } finally {
      JSON.parse = realParse;
    }
  });

  it('skips an over-long line arriving in pieces, answers it with its id, and reads on', () => {
    const { r, replies, drain } = reader(1024);
    r.append(Buffer.from('{"jsonrpc":"2.0","id":41,"method":"tasks/get","params":{"taskId":"'));
    for (let i = 0; i < 50; i++) r.append(Buffer.from('y'.repeat(1000)));
    r.append(Buffer.from('"}}\n{"jsonrpc":"2.0","method":"n/after"}\n'));
    const delivered = drain();
    assert.deepEqual(
      delivered.map((m) => (m as { method?: string }).method),
      ['n/after']
    );
    const answer = replies[0] as unknown as { id: number; error: { code: number; data: { bytes: number } } };
    assert.equal(answer.id, 41);
    assert.equal(answer.error.code, -32600);
    assert.ok(answer.error.data.bytes > 50_000);
  });

  it('reads lines that came in pieces whole, each left intact by the lines joined after it', () => {
    const { r, drain } = reader(8 * BYTES_PER_TURN);
    // Lines of several chunks each (joined in the reader's own buffer, or in one of their own
    // above 2 MiB), read in as few turns as the byte budget allows and only then compared:
    // every message must still hold its own line's text.
    const lines = [3, 200_000, 64, 150_000, 2_500_000, 90_000].map(
      (bytes, i) =>
        `${JSON.stringify({ jsonrpc: '2.0', method: `n/${i}`, params: { pad: String(i).repeat(bytes) } })}\n`
    );
    // Large lines of ASCII only are decoded as Latin-1, others as UTF-8: one of each kind.
    lines.push(`${JSON.stringify({ jsonrpc: '2.0', method: 'n/utf8', params: { pad: 'é€😀'.repeat(40_000) } })}\n`);
    const wire = Buffer.from(lines.join(''));
    for (let at = 0; at < wire.length; at += 16 * 1024) r.append(wire.subarray(at, at + 16 * 1024));
    const read: JSONRPCMessage[] = [];
    for (let turn = 0; turn < 3 * lines.length && read.length < lines.length; turn++, r.nextTurn())
      read.push(...drain());
    assert.deepEqual(
      read.map((m) => JSON.stringify(m)),
      lines.map((line) => line.trimEnd())
    );
  });

  it('fails our own request when its answer is malformed, instead of dropping it', () => {
    const { r, drain } = reader();
    r.append(Buffer.from('{"jsonrpc":"2.0","id":3,"result":"not an object"}\n'));
    const [message] = drain() as unknown as Array<{ id: number; error: { code: number } }>;
    assert.deepEqual([message?.id, message?.error.code], [3, -32603]);
  });
});

describe('readable refusals', () => {
  it('names the field and what was expected', () => {
    const parsed = CreateMessageRequestSchema.safeParse({
      method: 'sampling/createMessage',
      params: { messages: 'not-an-array', maxTokens: 1, task: { ttl: null } }
    });
    assert.ok(!parsed.success);
    const described = describeIssues(parsed.error, ['params']);
    assert.match(described, /(^|; )messages: expected an array, got a string(;|$)/);
    assert.match(described, /(^|; )task\.ttl: expected a number, got null(;|$)/);
  });

  it('refuses params nested deeper than the limit without recursing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const refusal = requestRefusal({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { deep } }, 128);
    assert.equal(refusal?.code, -32602);
  });

  it('finds the top-level id of a message cut short, not a nested one', () => {
    assert.deepEqual(topLevelFields('{"params":{"id":9,"x":"'), { method: false });
    assert.deepEqual(topLevelFields('{"jsonrpc":"2.0","method":"a","params":{"id":9},"id":"r-1","x'), {
      id: 'r-1',
      method: true
    });
    assert.deepEqual(topLevelFields('{"id":12,"method":"tasks/get","params":{"taskId":"yyyy'), {
      id: 12,
      method: true
    });
  });
});
