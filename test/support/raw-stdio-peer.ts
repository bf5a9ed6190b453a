/**
 * A stdio "server" that speaks raw JSON-RPC bytes for a test, through a control socket.
 *
 * It answers `server/discover` (−32601: legacy; with `modern` in its options, a 2026-07-28
 * `DiscoverResult` offering prompts, followed in the same write by `afterDiscover` when given;
 * `discoverDelayMs` after it came when given) and `initialize` (unless `ignoreInitialize`) itself; every other line the host writes is relayed to the test. With
 * `banner`, it writes that text to stdout as it starts, before reading anything. The test sends commands as JSON lines on the socket:
 * `{"send": text}` writes text to the host as is; `{"big": {head, fill, bytes, tail}}` writes
 * one line of `bytes` bytes; `{"stopReading": true}` stops reading stdin for good;
 * `{"flood": {line, count, perSecond?, durationMs?}}` writes `line` `count` times (`$i` replaced
 * by the index), paced when `perSecond` is given, stopping after `durationMs`;
 * `{"probe": {line, intervalMs, durationMs}}` sends a request every `intervalMs` on average (each
 * gap drawn from half to one and a half of it) on its own timer and reports each answer's latency
 * as measured here (a stalled host cannot hide it);
 * `{"elicitCancel": {bytes, perSecond, durationMs}}` sends task-augmented elicitations with a
 * message of `bytes` bytes and cancels each task as soon as it is acknowledged.
 *
 * It exits when its stdin ends (unless it stopped reading) or its control socket closes.
 *
 * Usage: node --import tsx test/support/raw-stdio-peer.ts <socket path> [options as JSON]
 */
import net from 'node:net';

const control = net.connect(process.argv[2]!);
const options = JSON.parse(process.argv[3] ?? '{}') as {
  modern?: boolean;
  afterDiscover?: string;
  banner?: string;
  /** Answers `server/discover` this long after it came (a slow starter). */
  discoverDelayMs?: number;
  /** Leaves `initialize` unanswered (as a 2026-07-28 server may). */
  ignoreInitialize?: boolean;
};
const modern = options.modern === true;
if (options.banner !== undefined) process.stdout.write(options.banner);
let inBuffer = '';
/** Answers this process waits for itself (probe, elicitCancel), by id. */
const pending = new Map<string | number, (message: Record<string, unknown>) => void>();
/** The control line read so far (its end not yet come). */
let controlChunks: Buffer[] = [];
const NEWLINE = 0x0a;

function toTest(event: Record<string, unknown>): void {
  control.write(`${JSON.stringify(event)}\n`);
}

function write(text: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

function onStdin(chunk: Buffer): void {
  inBuffer += chunk.toString('utf8');
  const lines = inBuffer.split('\n');
  inBuffer = lines.pop() ?? '';
  for (const line of lines) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as {
      id?: string | number;
      method?: string;
      params?: { protocolVersion?: string };
    };
    if (message.method === 'server/discover') {
      const answer = `${JSON.stringify(
        modern
          ? {
              jsonrpc: '2.0',
              id: message.id,
              result: {
                resultType: 'complete',
                supportedVersions: ['2026-07-28'],
                capabilities: { prompts: {} },
                _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'raw-peer', version: '1.0.0' } }
              }
            }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
      )}\n${modern ? (options.afterDiscover ?? '') : ''}`;
      if (options.discoverDelayMs === undefined) void write(answer);
      else setTimeout(() => void write(answer), options.discoverDelayMs);
    } else if (message.method === 'initialize') {
      if (!options.ignoreInitialize)
        void write(
          `${JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: message.params?.protocolVersion,
              capabilities: {},
              serverInfo: { name: 'raw-peer', version: '1.0.0' }
            }
          })}\n`
        );
    } else if (message.id !== undefined && message.method === undefined && pending.has(message.id)) {
      const resolve = pending.get(message.id)!;
      pending.delete(message.id);
      resolve(message);
    } else toTest({ fromHost: message });
  }
}
process.stdin.on('data', onStdin);
// Its stdin ended: the host closed the connection, and it exits, as a stdio server should (one
// that stopped reading never sees the end, and is stopped by the host).
process.stdin.on('end', () => process.exit(0));

async function command(line: string): Promise<void> {
  const order = JSON.parse(line) as {
    send?: string;
    big?: { head: string; fill: string; bytes: number; tail: string };
    stopReading?: boolean;
    flood?: { line: string; count: number; perSecond?: number; durationMs?: number };
    probe?: { line: string; intervalMs: number; durationMs: number };
    elicitCancel?: { bytes: number; perSecond: number; durationMs: number };
  };
  if (order.send !== undefined) await write(order.send);
  if (order.big) {
    const { head, fill, bytes, tail } = order.big;
    await write(head);
    const block = fill.repeat(64 * 1024);
    let left = bytes - head.length - tail.length;
    while (left > 0) {
      await write(block.slice(0, Math.min(left, block.length)));
      left -= block.length;
    }
    await write(tail);
  }
  if (order.stopReading) {
    process.stdin.off('data', onStdin);
    process.stdin.pause();
  }
  if (order.flood) {
    const { line, count, perSecond, durationMs } = order.flood;
    // The line's bytes around the index are encoded once: the flood costs this process little,
    // so a benchmark measures the host rather than the string building of its flooding peer.
    const [head, ...rest] = line.split('$i').map((part) => Buffer.from(part));
    const start = Date.now();
    for (let i = 0; i < count; i++) {
      if (durationMs !== undefined && Date.now() - start >= durationMs) break;
      if (perSecond !== undefined) await until(start + (i * 1000) / perSecond);
      const parts = rest.flatMap((part) => [Buffer.from(String(i)), part]);
      await write(Buffer.concat([head!, ...parts]));
    }
  }
  if (order.probe) await probe(order.probe);
  if (order.elicitCancel) await elicitCancel(order.elicitCancel);
  toTest({ done: true });
}

function until(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
}

/** Sends `line` (with `$i` as a fresh id) and resolves with the answer. */
function ask(line: string, id: string): Promise<Record<string, unknown>> {
  const answered = new Promise<Record<string, unknown>>((resolve) => pending.set(id, resolve));
  void write(line.replaceAll('$i', JSON.stringify(id)));
  return answered;
}

async function probe(options: { line: string; intervalMs: number; durationMs: number }): Promise<void> {
  const latencies: number[] = [];
  const sentAt: number[] = [];
  const inFlight: Array<Promise<void>> = [];
  const start = Date.now();
  let next = start;
  for (let i = 0; Date.now() - start < options.durationMs; i++) {
    const sent = performance.now();
    inFlight.push(
      ask(options.line, `probe-${i}`).then(() => {
        latencies.push(performance.now() - sent);
        sentAt.push(performance.timeOrigin + sent);
      })
    );
    // Each gap is drawn from [0.5, 1.5] × the interval rather than fixed: a probe on a fixed grid
    // keeps one phase against a periodic load (the flood's own pace, the host's timers) for a whole
    // window, so it measures that phase's collisions, a different one each repetition.
    next += options.intervalMs * (0.5 + Math.random());
    await until(next);
  }
  await Promise.all(inFlight);
  toTest({ latencies, sentAt });
}

async function elicitCancel(options: { bytes: number; perSecond: number; durationMs: number }): Promise<void> {
  // The request's bytes after its id are encoded once and written as the same Buffer each time,
  // as the flood's are: building four megabyte strings a request (stringify, two replaces,
  // encoding) kept this process's garbage collector on a core, and a benchmark measured the
  // two-core machine's scheduling of that rather than the host.
  const [before, after] = JSON.stringify({
    jsonrpc: '2.0',
    id: '$i',
    method: 'elicitation/create',
    params: {
      message: 'm'.repeat(options.bytes),
      requestedSchema: { type: 'object', properties: {} },
      task: { ttl: 60_000 }
    }
  }).split('"$i"');
  const body = Buffer.from(`${after}\n`);
  const start = Date.now();
  const work: Array<Promise<unknown>> = [];
  for (let i = 0; Date.now() - start < options.durationMs; i++) {
    const id = `elicit-${i}`;
    const answered = new Promise<Record<string, unknown>>((resolve) => pending.set(id, resolve));
    // Two writes in one turn: nothing else can come between them on stdout.
    void write(`${before}${JSON.stringify(id)}`);
    void write(body);
    work.push(
      answered.then((answer) => {
        const taskId = (answer.result as { task?: { taskId?: string } } | undefined)?.task?.taskId;
        if (!taskId) return undefined;
        return ask(
          `${JSON.stringify({ jsonrpc: '2.0', id: '$i', method: 'tasks/cancel', params: { taskId } })}\n`.replace(
            '"$i"',
            '$i'
          ),
          `cancel-${i}`
        );
      })
    );
    await until(start + ((i + 1) * 1000) / options.perSecond);
  }
  await Promise.all(work);
}

let chain = Promise.resolve();
// A command may be tens of megabytes on one line: each chunk is searched for its end, not
// the whole line again (which took the peer 15 s for 40 MB of requests).
control.on('data', (chunk: Buffer) => {
  let start = 0;
  for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
    controlChunks.push(chunk.subarray(start, end));
    const line = Buffer.concat(controlChunks).toString('utf8');
    controlChunks = [];
    start = end + 1;
    if (line.trim() !== '') chain = chain.then(() => command(line));
  }
  if (start < chunk.length) controlChunks.push(chunk.subarray(start));
});
control.on('close', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
