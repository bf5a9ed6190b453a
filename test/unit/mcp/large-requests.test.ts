import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcLineReader, LARGE_LINE_BYTES, defaultLineReaderLimits } from '../../../app/mcp/line-reader.js';
import { scanTopLevel } from '../../../app/mcp/top-level-scan.js';
import { jsonPart } from '../../../app/store/json-text.js';
import { ManualClock } from '../../support/manual-clock.js';

/** An elicitation as the SDK writes one: method and params first, the id last. */
function sdkElicitation(id: number | string, messageChars: number): string {
  const message = `a \\"quoted\\" word and a backslash \\\\${'m'.repeat(messageChars)}`;
  return `{"method":"elicitation/create","params":{"message":"${message}","requestedSchema":{"type":"object","properties":{"id":{"type":"string"}}}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
}

describe('top-level scan', () => {
  it('finds the method and an id that comes after megabytes of params, not an id nested in them', () => {
    const line = Buffer.from(sdkElicitation('late-id', 1_000_000));
    assert.deepEqual(scanTopLevel(line), { hasMethod: true, hasId: true, method: 'elicitation/create', id: 'late-id' });
    // What JSON.parse reads of the same line.
    const parsed = JSON.parse(line.toString()) as { method: string; id: string };
    assert.deepEqual([parsed.method, parsed.id], ['elicitation/create', 'late-id']);
  });

  it('reads a response as one, numbers and whitespace as JSON does, and a repeated member as its last', () => {
    assert.deepEqual(scanTopLevel(Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"content":[{"text":"x"}]}}')), {
      hasMethod: false,
      hasId: true,
      id: 7
    });
    assert.deepEqual(scanTopLevel(Buffer.from(' {\n "id" : -1.5e3 ,"method":"a","method":"b"}\r\n')), {
      hasMethod: true,
      hasId: true,
      method: 'b',
      id: -1500
    });
    assert.deepEqual(scanTopLevel(Buffer.from('{}')), { hasMethod: false, hasId: false });
  });

  it('reads no id it cannot read as JSON-RPC allows (an object, or one too long to be worth reading)', () => {
    assert.deepEqual(scanTopLevel(Buffer.from('{"method":"m","id":{"x":1}}')), {
      hasMethod: true,
      hasId: true,
      method: 'm'
    });
    const longId = `{"method":"m","id":"${'i'.repeat(300)}"}`;
    assert.deepEqual(scanTopLevel(Buffer.from(longId)), { hasMethod: true, hasId: true, method: 'm' });
  });

  it('gives up on what is not one JSON object', () => {
    for (const text of [
      '[1,2]',
      '{"method":"m"',
      '{"method":"m" "id":1}',
      '{"a":"unterminated}',
      '{"id":1} {"id":2}',
      'null'
    ])
      assert.equal(scanTopLevel(Buffer.from(text)), undefined, text);
  });
});

describe('large requests beyond the budget', () => {
  const realParse = JSON.parse;
  let largeParses = 0;
  beforeEach(() => {
    largeParses = 0;
    JSON.parse = ((text: string, reviver?: Parameters<typeof realParse>[1]) => {
      if (typeof text === 'string' && text.length >= LARGE_LINE_BYTES) largeParses++;
      return realParse(text, reviver);
    }) as typeof JSON.parse;
  });
  afterEach(() => {
    JSON.parse = realParse;
  });

  function reader(clock: ManualClock, refused = { perSecond: 400_000, burst: 600_000 }) {
    const replies: JSONRPCMessage[] = [];
    const throttles: number[] = [];
    const r = new JsonRpcLineReader(
      {
        ...defaultLineReaderLimits,
        largeRequestBytesPerSecond: 200_000,
        largeRequestBurstBytes: 300_000,
        refusedRequestBytesPerSecond: refused.perSecond,
        refusedRequestBurstBytes: refused.burst
      },
      {
        reply: (m) => replies.push(m),
        dropped: () => undefined,
        backlog: () => undefined,
        throttle: (ms) => throttles.push(ms)
      },
      clock
    );
    // A data event, then the turns a large line takes (decoded, parsed, delivered).
    const read = (text: string) => {
      r.append(Buffer.from(`${text}\n`));
      const out: JSONRPCMessage[] = [];
      for (let turn = 0; turn < 4; turn++) {
        for (let m = r.readMessage(); m !== null; m = r.readMessage()) out.push(m);
        r.nextTurn();
      }
      return out;
    };
    return { read, replies, throttles };
  }

  it('reads a line larger than the whole burst once the budget is full, instead of refusing it for ever', async () => {
    const clock = new ManualClock();
    const { read, replies } = reader(clock);
    // 400 KB against a burst of 300,000 bytes: read while the bucket is full, and it empties it.
    assert.equal(read(sdkElicitation(1, 400_000)).length, 1);
    assert.equal(read(sdkElicitation(2, 400_000)).length, 0);
    assert.equal((replies[0] as unknown as { error: { code: number } }).error.code, -32029);
    await clock.advance(1_500);
    assert.equal(read(sdkElicitation(3, 400_000)).length, 1, 'once the bucket is full again');
    assert.equal(largeParses, 2);
  });

  it('refuses them −32029 with their id, unparsed, and reads them again once the budget refills', async () => {
    const clock = new ManualClock();
    const { read, replies } = reader(clock);
    const bytes = Buffer.byteLength(sdkElicitation(0, 99_000));
    // 300,000 bytes saved up: three lines of about 100 KB are read and delivered, then refused.
    const delivered = [1, 2, 3, 4, 5].map((i) => read(sdkElicitation(i, 99_000)).length);
    assert.deepEqual(delivered, [1, 1, 1, 0, 0]);
    assert.equal(largeParses, 3);
    assert.equal(replies.length, 2);
    for (const [index, reply] of replies.entries()) {
      const { id, error } = reply as unknown as {
        id: number;
        error: { code: number; message: string; data: { bytes: number; limit: number; retryAfterMs: number } };
      };
      assert.equal(id, index + 4);
      assert.equal(error.code, -32029);
      assert.match(error.message, /^Too many request bytes: .* retry in \d+ ms$/);
      assert.equal(error.data.bytes, bytes);
      assert.equal(error.data.limit, 200_000);
      assert.ok(error.data.retryAfterMs > 0);
    }
    // A second later, 200,000 more bytes: one more is read.
    await clock.advance(1_000);
    assert.equal(read(sdkElicitation(6, 99_000)).length, 1);
    assert.equal(largeParses, 4);
  });

  it('past twice the budget in refusals, asks for reading to wait until another refused line fits', async () => {
    const clock = new ManualClock();
    const { read, replies, throttles } = reader(clock);
    const bytes = Buffer.byteLength(sdkElicitation(0, 99_000));
    // Three delivered (300,000 bytes saved up), then six refused at the pipe's pace (600,000):
    // the sixth empties the refusals' bucket, and reading is to wait until a seventh would fit.
    const delivered = Array.from({ length: 9 }, (_, i) => read(sdkElicitation(i + 1, 99_000)).length);
    assert.deepEqual(delivered, [1, 1, 1, 0, 0, 0, 0, 0, 0]);
    assert.equal(replies.length, 6, 'every refused line is still answered');
    assert.equal(throttles.length, 1, `asked to wait: ${throttles.join(', ')}`);
    // 600,000 − 6 × bytes left: the wait is what refills the rest of one line at 400,000 bytes a second.
    assert.equal(throttles[0], Math.ceil(((bytes - (600_000 - 6 * bytes)) / 400_000) * 1000));
    // Each further refused line (the pipe had more) asks again, for its own wait.
    read(sdkElicitation(10, 99_000));
    assert.equal(throttles.length, 2);
    assert.ok(throttles[1]! > throttles[0], 'the bucket is emptier still');
    // A second later: two more are delivered (200,000 bytes of budget), and the refusals' bucket
    // has refilled, so the next refused line is read without a wait.
    await clock.advance(1_000);
    assert.deepEqual(
      [11, 12, 13].map((i) => read(sdkElicitation(i, 99_000)).length),
      [1, 1, 0]
    );
    assert.equal(replies.length, 8);
    assert.equal(throttles.length, 2);
    assert.equal(largeParses, 5, 'refused lines are not parsed');
  });

  it('counts large lines refused for other reasons too: too long, not JSON, not JSON-RPC', () => {
    const clock = new ManualClock();
    const limits = {
      ...defaultLineReaderLimits,
      maxLineBytes: 150_000,
      refusedRequestBytesPerSecond: 400_000,
      refusedRequestBurstBytes: 600_000
    };
    const flood = (line: string) => {
      const replies: JSONRPCMessage[] = [];
      const throttles: number[] = [];
      const r = new JsonRpcLineReader(
        limits,
        {
          reply: (m) => replies.push(m),
          dropped: () => undefined,
          backlog: () => undefined,
          throttle: (ms) => throttles.push(ms)
        },
        clock
      );
      for (let i = 0; i < 10; i++) {
        r.append(Buffer.from(`${line}\n`));
        for (let turn = 0; turn < 3; turn++) {
          while (r.readMessage() !== null);
          r.nextTurn();
        }
      }
      return { replies, throttles };
    };
    const big = 'x'.repeat(200_000);
    const cases = {
      'over the line limit': `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"${big}"}}`,
      'not JSON': `{"jsonrpc":"2.0","id":1,"method":"m","params":"${'y'.repeat(120_000)}`,
      'not JSON-RPC': `{"jsonrpc":"1.0","id":1,"method":"m","params":{"x":"${'z'.repeat(120_000)}"}}`
    };
    for (const [name, line] of Object.entries(cases)) {
      const { replies, throttles } = flood(line);
      assert.equal(replies.length, 10, `${name}: every one answered`);
      // 600,000 bytes read at the pipe's pace, then a wait asked for after each further line.
      const perLine = Math.min(Buffer.byteLength(line), 600_000);
      assert.equal(throttles.length, 10 - Math.floor(600_000 / perLine) + 1, `${name}: ${throttles.length} waits`);
    }
  });

  it('never refuses an answer to our own request, a small request or a notification', () => {
    const { read, replies } = reader(new ManualClock());
    for (let i = 0; i < 4; i++) read(sdkElicitation(i, 99_000));
    assert.equal(replies.length, 1);
    const big = 'r'.repeat(100_000);
    assert.equal(read(`{"jsonrpc":"2.0","id":99,"result":{"content":[{"type":"text","text":"${big}"}]}}`).length, 1);
    assert.equal(read(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${big}"}}`).length, 1);
    assert.equal(read('{"jsonrpc":"2.0","id":100,"method":"ping"}').length, 1);
    assert.equal(replies.length, 1);
  });
});

describe('the strings of a large line', () => {
  const realTest = Object.getOwnPropertyDescriptor(RegExp.prototype, 'test')!;
  /** Regular expressions tested on long strings (the check for escapes) since the last look. */
  let longChecks = 0;
  beforeEach(() => {
    longChecks = 0;
    Object.defineProperty(RegExp.prototype, 'test', {
      ...realTest,
      value: function (this: RegExp, text: string) {
        if (text.length >= 1024) longChecks++;
        return (realTest.value as (this: RegExp, text: string) => boolean).call(this, text);
      }
    });
  });
  afterEach(() => Object.defineProperty(RegExp.prototype, 'test', realTest));

  /** The message of `line`, through a reader's data event and the turns a large line takes. */
  function deliver(r: JsonRpcLineReader, line: string): JSONRPCMessage {
    r.append(Buffer.from(`${line}\n`));
    let delivered: JSONRPCMessage | null = null;
    for (let turn = 0; turn < 4 && delivered === null; turn++) {
      r.nextTurn();
      delivered = r.readMessage();
    }
    assert.ok(delivered, 'delivered');
    return delivered;
  }

  const newReader = (limits = defaultLineReaderLimits) =>
    new JsonRpcLineReader(limits, { reply: () => undefined, dropped: () => undefined, backlog: () => undefined });

  it('are written back as JSON.stringify writes them, checked for escapes only when the line had a backslash', () => {
    const r = newReader({ ...defaultLineReaderLimits, maxLineBytes: 4 * LARGE_LINE_BYTES * 8 });
    const long = (fill: string) => fill.repeat(Math.ceil(100_000 / fill.length));
    const cases: Array<[string, string, boolean]> = [
      ['ASCII', long('m'), false],
      ['UTF-8', long('é ü 漢字 emoji 🎉 '), false],
      ['a quote', long('say "hi" '), true],
      ['a backslash', long('C:\\dir '), true],
      ['control characters', long('new\nline\ttab\u0001 '), true],
      ['a lone surrogate', `${long('m')}\ud800`, true],
      ['an escape that needs none', `${long('m')}\\u0041`, true]
    ];
    for (const [name, message, escaped] of cases) {
      const params = { message, requestedSchema: { type: 'object', properties: {} } };
      const delivered = deliver(r, JSON.stringify({ jsonrpc: '2.0', id: name, method: 'elicitation/create', params }));
      longChecks = 0;
      const part = jsonPart((delivered as unknown as { params: unknown }).params)!;
      assert.equal(part.text, JSON.stringify(params), name);
      assert.equal(part.bytes, Buffer.byteLength(JSON.stringify(params)), name);
      if (escaped) assert.ok(longChecks > 0, `${name}: checked`);
      else assert.equal(longChecks, 0, `${name}: taken as vouched`);
    }
  });

  it('are taken as vouched for a second at most, so that strings nobody stores are not kept for it', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const params = { message: 'w'.repeat(100_000) };
    const delivered = deliver(
      newReader(),
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'elicitation/create', params })
    );
    t.mock.timers.tick(1000);
    longChecks = 0;
    const part = jsonPart((delivered as unknown as { params: unknown }).params)!;
    assert.equal(part.text, JSON.stringify(params));
    assert.ok(longChecks > 0, 'checked: the word given for it was forgotten');
  });
});

describe('a large line refused once parsed', () => {
  it('counts against its turn, so that the small lines behind it wait for the next', () => {
    const r = new JsonRpcLineReader(defaultLineReaderLimits, {
      reply: () => undefined,
      dropped: () => undefined,
      backlog: () => undefined
    });
    // A request whose id is an object: refused −32600 once parsed.
    let wire = `${JSON.stringify({ jsonrpc: '2.0', method: 'n', params: { p: 'x'.repeat(1_000_000) }, id: {} })}\n`;
    for (let i = 0; i < 64; i++)
      wire += `${JSON.stringify({ jsonrpc: '2.0', method: `s/${i}`, params: { p: 'y'.repeat(16_000) } })}\n`;
    r.append(Buffer.from(wire));
    const perTurn: number[] = [];
    for (let turn = 0; turn < 4; turn++) {
      r.nextTurn();
      let n = 0;
      while (r.readMessage() !== null) n++;
      perTurn.push(n);
    }
    // Decoded on the first turn; parsed and refused on the second, which then has room for
    // (1 MiB − 1 MB) of 16 KB lines only; the rest on the third.
    assert.equal(perTurn[0], 0);
    assert.ok(perTurn[1]! < 10, `second turn read ${perTurn[1]} small lines`);
    assert.equal(perTurn[1]! + perTurn[2]!, 64);
  });
});
