import type { Writable } from 'node:stream';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY as CORE_RELATED_TASK_META_KEY,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS
} from '@modelcontextprotocol/core/internal';
import { DiscoverResultSchema as CoreDiscoverResultSchema } from '@modelcontextprotocol/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  EmptyResultSchema,
  JSONRPCResultResponseSchema,
  McpError,
  PingRequestSchema,
  RELATED_TASK_META_KEY,
  type JSONRPCMessage
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defaultLineReaderLimits } from '../../../app/mcp/line-reader.js';
import { CLIENT_CAPABILITIES } from '../../../app/mcp/server-connection.js';
import { DiscoverResultSchema, LEGACY_PROTOCOL_VERSIONS, MetaKey } from '../../../app/mcp/modern-protocol.js';
import {
  GuardedStdioTransport,
  RequestAbort,
  SDK_TIMEOUT_OUT_OF_THE_WAY_MS,
  cancelAnyRequestId,
  connectWithoutInitialize,
  handlesRequest,
  HostClient,
  METHOD_NOT_FOUND,
  markStarted,
  releaseTaskProgressHandler,
  requestAnyMethod,
  setServerRequestHandler,
  watchCloseRequests,
  watchStdioExit
} from '../../../app/mcp/sdk-seams.js';

/**
 * Counts the SDK's checks of messages against `JSONRPCResultResponseSchema` (zod defines
 * `safeParse` as a lazy getter, which `mock.method` does not take) until `restore`.
 */
function countChecks(): { readonly count: number; restore(): void } {
  const schema = JSONRPCResultResponseSchema as unknown as { safeParse: (value: unknown) => unknown };
  const original = schema.safeParse.bind(schema);
  let count = 0;
  Object.defineProperty(schema, 'safeParse', {
    configurable: true,
    value: (value: unknown) => {
      count++;
      return original(value);
    }
  });
  return {
    get count() {
      return count;
    },
    restore: () => delete (schema as { safeParse?: unknown }).safeParse
  };
}

/** A child that echoes each line it reads on stdin to stderr, and first prints `first` to stdout. */
function echoChild(first: string): { command: string; args: string[] } {
  const script = `process.stdout.write(${JSON.stringify(first)});process.stdin.on('data',(c)=>process.stderr.write(c));`;
  return { command: process.execPath, args: ['-e', script] };
}

function stderrLines(transport: StdioClientTransport): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    transport.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
  });
}

describe('SDK seams (each fails when an SDK upgrade changes what a workaround relies on)', () => {
  it('StdioClientTransport reads stdout through a replaceable _readBuffer and writes through _process.stdin', async () => {
    const plain = new StdioClientTransport({ command: process.execPath, args: ['-e', ''] }) as unknown as {
      _readBuffer: Record<string, unknown>;
    };
    for (const method of ['append', 'readMessage', 'clear'])
      assert.equal(typeof plain._readBuffer[method], 'function', `_readBuffer.${method}`);

    // The guarded transport's reader gets the child's output (and delivers a good message)…
    const transport = new GuardedStdioTransport({
      ...echoChild('{"jsonrpc":"2.0","method":"notifications/hello"}\n{"jsonrpc":"1.0","id":7,"method":"x"}\n'),
      stderr: 'pipe'
    });
    const delivered: JSONRPCMessage[] = [];
    transport.onmessage = (message) => delivered.push(message);
    const echoed = stderrLines(transport);
    await transport.start();
    // …and its answer to the broken request reaches the child's stdin through the bounded queue.
    const answer = JSON.parse(await echoed) as { id: number; error: { code: number } };
    assert.deepEqual([answer.id, answer.error.code], [7, -32600]);
    assert.deepEqual(delivered, [{ jsonrpc: '2.0', method: 'notifications/hello' }]);
    assert.ok((transport as unknown as { _process?: { stdin?: unknown } })._process?.stdin);
    await transport.close();
  });

  it('StdioClientTransport keeps its child in _process once started: its exit is known by onclose, and not noted after close()', async () => {
    const exitOf = async (script: string) => {
      const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', script] });
      const watch = watchStdioExit(transport);
      const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
      await transport.start();
      await closed;
      return watch.exit;
    };
    assert.deepEqual(await exitOf('process.exit(3)'), { code: 3, signal: null });
    assert.deepEqual(await exitOf("process.kill(process.pid, 'SIGKILL')"), { code: null, signal: 'SIGKILL' });

    // Closed by Taskdesk (its stdin ended, on which this child exits): that exit is not the server's own.
    const running = new GuardedStdioTransport({
      command: process.execPath,
      args: ['-e', "process.stdin.on('end', () => process.exit(0)).resume()"]
    });
    const watch = watchStdioExit(running);
    await running.start();
    const child = (running as unknown as { _process?: { once(event: 'exit', listener: () => void): void } })._process;
    assert.ok(child, 'the child is in _process once start resolved');
    const exited = new Promise<void>((resolve) => child.once('exit', resolve));
    await running.close();
    await exited;
    assert.equal(watch.exit, undefined);
  });

  it('a stdio server that stops reading is dropped with one drain listener at most', async () => {
    const transport = new GuardedStdioTransport(
      { command: process.execPath, args: ['-e', 'process.stdin.pause(); setInterval(() => {}, 1000)'] },
      { queue: { maxQueuedBytes: 1024 * 1024, maxQueuedMessages: 50 } }
    );
    let reason: string | undefined;
    transport.onDrop = (why) => (reason = why);
    transport.onerror = () => undefined;
    await transport.start();
    const message: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { data: 'x'.repeat(4096) }
    };
    let peak = 0;
    for (let i = 0; i < 2_000 && reason === undefined; i++) {
      void transport.send(message).catch(() => undefined);
      peak = Math.max(peak, transport.queueStats.drainListeners);
    }
    assert.match(reason ?? '', /stopped reading its input: 50 messages/);
    assert.ok(peak <= 1, `${peak} drain listeners`);
    await transport.close();
  });

  it(
    'a stdio server sending large requests past what is read of refusals is paused, then read again to the last line',
    {
      timeout: 60_000
    },
    async () => {
      // Twenty requests of 100 KB at once, against a budget of 100,000 bytes a second (200,000 saved
      // up) and refusals read at the pipe's pace up to 400,000 bytes (2 MB a second after that).
      // After each, 300 small notifications: more than a turn reads, so the backlog's own pause and
      // resume run while the server is held back.
      const lines = 20;
      const script = `const line = (i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'elicitation/create', params: { message: 'm'.repeat(100000), requestedSchema: { type: 'object', properties: {} } } });
      const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }) + '\\n';
      for (let i = 0; i < ${lines}; i++) process.stdout.write(line(i) + '\\n' + note.repeat(300));
      process.stdin.on('data', (c) => process.stderr.write(c));`;
      const transport = new GuardedStdioTransport(
        { command: process.execPath, args: ['-e', script], stderr: 'pipe' },
        {
          reader: {
            ...defaultLineReaderLimits,
            largeRequestBytesPerSecond: 100_000,
            largeRequestBurstBytes: 200_000,
            refusedRequestBytesPerSecond: 2_000_000,
            refusedRequestBurstBytes: 400_000
          }
        }
      );
      const stdout = () =>
        (transport as unknown as { _process: { stdout: { isPaused(): boolean; resume(): unknown } } })._process.stdout;
      const throttles: Array<{ ms: number; paused: boolean }> = [];
      // What happened to reading, in order: each pause, and each resume with whether a timer made it.
      const steps: Array<'pause' | 'resume by the timer' | 'resume'> = [];
      transport.onThrottle = (ms) => {
        throttles.push({ ms, paused: stdout().isPaused() });
        steps.push('pause');
      };
      const delivered: number[] = [];
      let notifications = 0;
      transport.onmessage = (message) => {
        if ('id' in message) delivered.push(Number(message.id));
        else notifications++;
      };
      let answers = '';
      const allAnswered = new Promise<void>((resolve) =>
        transport.stderr!.on('data', (chunk: Buffer) => {
          answers += chunk.toString('utf8');
          if (answers.split('\n').length - 1 + delivered.length >= lines) resolve();
        })
      );
      await transport.start();
      // Every time reading starts again, from the backlog's resume or the pause's timer (the only
      // timer that resumes it). Told apart by the stack, not by the clock: Node arms a timer from
      // the event loop's cached time, so under load it fires sooner after the pause than its
      // delay by the wall clock, and a test of times failed when the machine was busy.
      let closing = false;
      const out = stdout();
      const resume = out.resume.bind(out);
      out.resume = () => {
        // Node resumes a child's stdout itself when the child exits, at the close.
        if (!closing) steps.push(/\blistOnTimeout\b/.test(new Error().stack ?? '') ? 'resume by the timer' : 'resume');
        return resume();
      };
      try {
        await allAnswered;
      } finally {
        closing = true;
        await transport.close();
      }
      const refused = answers
        .trim()
        .split('\n')
        .map((text) => JSON.parse(text) as { id: number; error: { code: number } });
      assert.ok(delivered.length >= 1 && delivered.length <= 2, `${delivered.length} delivered`);
      assert.deepEqual(
        [...delivered, ...refused.map((r) => r.id)].sort((a, b) => a - b),
        Array.from({ length: lines }, (_, i) => i),
        'every line is read and delivered or answered'
      );
      assert.ok(refused.every((r) => r.error.code === -32029));
      // Past the first refusals the server was paused. How many times depends on how fast the
      // lines are read against the budget's refill by the wall clock (a busy machine reads slower,
      // refills more, and pauses less: 12 of the 13 once asked for, in a full run beside other
      // work); the count, on a test clock, is large-requests.test.ts's.
      assert.ok(throttles.length >= 1, `${throttles.length} pauses`);
      assert.ok(throttles.every((t) => t.paused && t.ms > 0 && t.ms <= 60));
      // Nothing read the server again while it was held back: after a pause, reading starts again
      // only once its timer ends it (a later pause may extend it first).
      let held = false;
      const early: number[] = [];
      steps.forEach((step, index) => {
        if (step === 'pause') held = true;
        else if (step === 'resume by the timer') held = false;
        else if (held) early.push(index);
      });
      assert.deepEqual(early, [], `resumed during a pause: ${steps.join(', ')}`);
      assert.ok(steps.includes('resume by the timer'));
      assert.ok(notifications > 0);
    }
  );

  it('messages sent in one turn reach a stdio server in one write, in order', async () => {
    const transport = new GuardedStdioTransport({ ...echoChild(''), stderr: 'pipe' });
    await transport.start();
    try {
      await oneWritePerTurn(transport);
    } finally {
      await transport.close();
    }
  });

  async function oneWritePerTurn(transport: GuardedStdioTransport): Promise<void> {
    const stdin = (transport as unknown as { _process: { stdin: Writable } })._process.stdin as Writable & {
      _write: (...args: unknown[]) => void;
      _writev: (...args: unknown[]) => void;
    };
    const writes: number[] = [];
    const write = stdin._write.bind(stdin);
    const writev = stdin._writev.bind(stdin);
    stdin._write = (...args) => {
      writes.push(1);
      write(...args);
    };
    stdin._writev = (chunks, ...rest) => {
      writes.push((chunks as unknown[]).length);
      writev(chunks, ...rest);
    };
    let echoed = '';
    const allEchoed = new Promise<void>((resolve) =>
      transport.stderr!.on('data', (chunk: Buffer) => {
        echoed += chunk.toString('utf8');
        if (echoed.split('\n').length > 3) resolve();
      })
    );
    for (const n of [1, 2, 3]) void transport.send({ jsonrpc: '2.0', method: 'notifications/n', params: { n } });
    assert.deepEqual(writes, [], 'nothing is written before the turn ends');
    await allEchoed;
    assert.deepEqual(writes, [3], 'one write of the three messages');
    assert.deepEqual(
      echoed
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { params: { n: number } }).params.n),
      [1, 2, 3]
    );
    // A later turn writes again.
    void transport.send({ jsonrpc: '2.0', method: 'notifications/n', params: { n: 4 } });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, [3, 1]);
  }

  it('Protocol.prototype.connect connects without initialize', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const seen: string[] = [];
    serverSide.onmessage = (message) => {
      if ('method' in message) seen.push(message.method);
      if ('id' in message && 'method' in message) void serverSide.send({ jsonrpc: '2.0', id: message.id, result: {} });
    };
    await serverSide.start();
    const client = new Client({ name: 't', version: '1' });
    await connectWithoutInitialize(client, clientSide);
    await client.request({ method: 'ping' }, EmptyResultSchema);
    assert.deepEqual(seen, ['ping']);
    await client.close();
  });

  it('Client.connect cancels initialize when its own timeout runs out, but not when its transport is closed', async () => {
    const initializeOnce = async (
      giveUp: (client: Client, clientSide: InMemoryTransport, asked: Promise<void>) => Promise<unknown>
    ) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const seen: string[] = [];
      let onAsked: () => void = () => undefined;
      const asked = new Promise<void>((resolve) => (onAsked = resolve));
      serverSide.onmessage = (message) => {
        if (!('method' in message)) return;
        seen.push(message.method);
        if (message.method === 'initialize') onAsked();
      };
      const closed = new Promise<void>((resolve) => (serverSide.onclose = resolve));
      await serverSide.start();
      const client = new Client({ name: 't', version: '1' });
      const error = await giveUp(client, clientSide, asked);
      await closed;
      return { seen, error };
    };
    // What SDK_TIMEOUT_OUT_OF_THE_WAY_MS keeps from happening: the SDK's timeout cancels initialize.
    const timedOut = await initializeOnce((client, clientSide) =>
      client.connect(clientSide, { timeout: 10 }).catch((error: unknown) => error)
    );
    assert.deepEqual(timedOut.seen, ['initialize', 'notifications/cancelled']);
    // What Taskdesk does instead: the close fails the pending initialize, and nothing more is sent.
    const closed = await initializeOnce(async (client, clientSide, asked) => {
      const connecting = client
        .connect(clientSide, { timeout: SDK_TIMEOUT_OUT_OF_THE_WAY_MS })
        .catch((error: unknown) => error);
      await asked;
      await clientSide.close();
      return connecting;
    });
    assert.deepEqual(closed.seen, ['initialize']);
    assert.match(String(closed.error), /Connection closed/);
  });

  it('Protocol keeps a task progress handler until _cleanupTaskProgressHandler releases it', async () => {
    assert.equal(
      typeof (Protocol.prototype as unknown as Record<string, unknown>)._cleanupTaskProgressHandler,
      'function'
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server(
      { name: 's', version: '1' },
      { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } } }
    );
    server.setRequestHandler(z.object({ method: z.literal('tools/call'), params: z.unknown() }), () => ({
      task: {
        taskId: 't1',
        status: 'working',
        createdAt: new Date().toISOString(),
        lastUpdatedAt: new Date().toISOString(),
        ttl: 1000
      }
    }));
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientSide);
    const handlers = (client as unknown as { _progressHandlers: Map<unknown, unknown> })._progressHandlers;
    await client.request({ method: 'tools/call', params: { name: 'x', task: { ttl: 1000 } } }, CreateTaskResultSchema, {
      onprogress: () => undefined
    });
    assert.equal(handlers.size, 1, 'the SDK still keeps the handler after CreateTaskResult');
    releaseTaskProgressHandler(client, 't1');
    assert.equal(handlers.size, 0);
    await client.close();
  });

  it('HostClient takes a plain result response as _onresponse would, without the SDK checking it three times', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const replies: Record<string, (id: string | number) => JSONRPCMessage> = {
      ping: (id) => ({ jsonrpc: '2.0', id, result: {} }),
      'tools/call': (id) => ({
        jsonrpc: '2.0',
        id,
        result: { task: { taskId: 't1', status: 'working', createdAt: 'c', lastUpdatedAt: 'c', ttl: 1000 } }
      }),
      // Valid, but the schema drops the related task's extra key: not one the seam vouches for.
      'odd/meta': (id) => ({
        jsonrpc: '2.0',
        id,
        result: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't', x: 1 } } }
      }),
      'fails/here': (id) => ({ jsonrpc: '2.0', id, error: { code: -32000, message: 'no' } })
    };
    serverSide.onmessage = (message) => {
      if (!('method' in message) || !('id' in message)) return;
      void serverSide.send(replies[message.method]!(message.id));
      if (message.method === 'ping') void serverSide.send({ jsonrpc: '2.0', id: 999, result: {} });
    };
    await serverSide.start();
    const seenFirst: JSONRPCMessage[] = [];
    clientSide.onmessage = (message) => seenFirst.push(message);
    const errors: string[] = [];
    const client = new HostClient({ name: 'c', version: '1' });
    client.onerror = (error) => errors.push(error.message);
    await connectWithoutInitialize(client, clientSide);
    const internals = client as unknown as {
      _progressHandlers: Map<unknown, unknown>;
      _taskProgressTokens: Map<string, number>;
      _timeoutInfo: Map<unknown, unknown>;
    };
    const checks = countChecks();
    try {
      await client.request({ method: 'ping' }, EmptyResultSchema, { onprogress: () => undefined, timeout: 60_000 });
      assert.equal(checks.count, 0, 'a plain result is not checked again');
      assert.equal(internals._progressHandlers.size, 0, 'its progress handler went');
      assert.equal(internals._timeoutInfo.size, 0, 'its timeout was cleared');
      assert.match(errors.join('\n'), /Received a response for an unknown message ID: .*999/);

      await client.request(
        { method: 'tools/call', params: { name: 'x', task: { ttl: 1000 } } },
        CreateTaskResultSchema,
        {
          onprogress: () => undefined
        }
      );
      assert.equal(internals._progressHandlers.size, 1, 'a CreateTaskResult keeps its progress handler');
      assert.equal(typeof internals._taskProgressTokens.get('t1'), 'number');
      releaseTaskProgressHandler(client, 't1');
      assert.equal(internals._progressHandlers.size, 0);

      // Anything unusual, and errors, go through the SDK's own dispatch.
      await client.request({ method: 'odd/meta' }, z.object({}).loose());
      assert.ok(checks.count > 0, 'the SDK checked the unusual one');
      await assert.rejects(client.request({ method: 'fails/here' }, EmptyResultSchema), McpError);
      // The transport's earlier handler still saw every message, first.
      assert.equal(seenFirst.length, 5);
    } finally {
      checks.restore();
    }
    await client.close();
  });

  it('the SDK Client checks each result response against JSONRPCResultResponseSchema three times (what HostClient saves)', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serverSide.onmessage = (message) => {
      if ('method' in message && 'id' in message) void serverSide.send({ jsonrpc: '2.0', id: message.id, result: {} });
    };
    await serverSide.start();
    const client = new Client({ name: 'c', version: '1' });
    await connectWithoutInitialize(client, clientSide);
    const checks = countChecks();
    try {
      await client.request({ method: 'ping' }, EmptyResultSchema);
      assert.equal(checks.count, 3);
    } finally {
      checks.restore();
    }
    await client.close();
  });

  it('Client.connect starts its transport once, and Client.close closes through transport.close', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    await server.connect(serverSide);
    await clientSide.start();
    const started: string[] = [];
    const start = clientSide.start.bind(clientSide);
    clientSide.start = () => {
      started.push('original');
      return start();
    };
    markStarted(clientSide);
    let closeAsked = 0;
    const restore = watchCloseRequests(clientSide, () => closeAsked++);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(clientSide);
    assert.deepEqual(started, [], 'the started transport was not started again');
    await client.close();
    assert.ok(closeAsked >= 1, 'Client.close went through transport.close');
    restore();
  });

  it('Client.request sends a method the SDK does not know, and its sampling handler checks a CreateTaskResult itself', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    server.fallbackRequestHandler = (request) => Promise.resolve({ echoed: request.method });
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' }, { capabilities: CLIENT_CAPABILITIES });
    let answer: Record<string, unknown> = {};
    setServerRequestHandler(client, CreateMessageRequestSchema, () => Promise.resolve(answer));
    await client.connect(clientSide);
    const result = await requestAnyMethod(client, { method: 'server/discover', params: {} }, z.looseObject({}));
    assert.deepEqual(result, { echoed: 'server/discover' });

    const params = { messages: [], maxTokens: 1, task: { ttl: 1000 } };
    answer = { task: { taskId: 't', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttl: 1000 } };
    const created = await server.request({ method: 'sampling/createMessage', params }, CreateTaskResultSchema);
    assert.equal(created.task.taskId, 't');
    answer = { nonsense: true };
    await assert.rejects(
      server.request({ method: 'sampling/createMessage', params }, CreateTaskResultSchema),
      /-32602/
    );
    await client.close();
  });

  it('Client.request takes a RequestAbort for a signal: aborted in flight, the request is cancelled on the wire and rejected', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
    server.fallbackRequestHandler = () => new Promise(() => undefined);
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1' }, { capabilities: {} });
    await client.connect(clientSide);
    const sent: JSONRPCMessage[] = [];
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => {
      sent.push(message);
      return send(message, options);
    };
    // Reused after its request was answered, it forgets that request: aborting it cancels only the next.
    const abort = new RequestAbort();
    server.setRequestHandler(PingRequestSchema, () => ({}));
    await client.ping({ signal: abort.signal });
    assert.equal(abort.reuse(), true);
    sent.length = 0;
    const asked = requestAnyMethod(client, { method: 'x/slow', params: {} }, z.looseObject({}), {
      signal: abort.signal
    });
    abort.abort(new Error('stopped following'));
    await assert.rejects(asked, /stopped following/);
    const requestId = (sent[0] as { id?: number }).id;
    assert.deepEqual(
      sent
        .slice(1)
        .map((message) => [
          (message as { method?: string }).method,
          (message as { params?: { requestId?: number } }).params?.requestId
        ]),
      [['notifications/cancelled', requestId]]
    );
    // Already aborted: refused before anything is sent.
    await assert.rejects(
      requestAnyMethod(client, { method: 'x/slow', params: {} }, z.looseObject({}), { signal: abort.signal }),
      /stopped following/
    );
    assert.equal(sent.length, 2);
    assert.equal(abort.reuse(), false, 'an aborted one is not reused');
    await client.close();
  });

  it('requestAnyMethod tells the id a request is sent with before a notification sent at once in reply reaches a handler, and none for a request refused before it is sent', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // A server that tags its reply with the request's id as soon as it reads the request (the
    // in-memory pair delivers at once, inside the request call), and leaves the request open.
    serverSide.onmessage = (message) => {
      if ('method' in message && 'id' in message)
        void serverSide.send({ jsonrpc: '2.0', method: 'x/tagged', params: { requestId: message.id } });
    };
    await serverSide.start();
    const client = new Client({ name: 'c', version: '1' }, { capabilities: {} });
    await connectWithoutInitialize(client, clientSide);
    const told: number[] = [];
    const heard = new Promise<{ requestId: unknown; told: number[] }>((resolve) =>
      client.setNotificationHandler(
        z.object({ method: z.literal('x/tagged'), params: z.object({ requestId: z.unknown() }) }),
        (notification) => resolve({ requestId: notification.params.requestId, told: [...told] })
      )
    );
    const open = new AbortController();
    void requestAnyMethod(
      client,
      { method: 'x/listen', params: {} },
      z.looseObject({}),
      { signal: open.signal },
      (id) => told.push(id)
    ).catch(() => undefined);
    const { requestId, told: toldBefore } = await heard;
    assert.deepEqual(toldBefore, [requestId], 'the id was told before the handler ran, and is the one sent');
    // Refused before it is sent (aborted already): no id told.
    open.abort();
    await assert.rejects(
      requestAnyMethod(client, { method: 'x/listen', params: {} }, z.looseObject({}), { signal: open.signal }, (id) =>
        told.push(id)
      )
    );
    assert.deepEqual(told, [requestId]);
    await client.close();
  });

  it("handlesRequest follows the client's request handlers, and the SDK answers any other method with METHOD_NOT_FOUND", async () => {
    const client = new Client({ name: 'c', version: '0' }, { capabilities: { elicitation: { form: {} } } });
    assert.equal(handlesRequest(client, 'ping'), true, 'the SDK answers ping itself');
    assert.equal(handlesRequest(client, 'elicitation/create'), false);
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
    assert.equal(handlesRequest(client, 'elicitation/create'), true);
    assert.equal(handlesRequest(client, 'no/such/method'), false);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const reply = new Promise<JSONRPCMessage>((resolve) => (serverSide.onmessage = resolve));
    await serverSide.start();
    await connectWithoutInitialize(client, clientSide);
    await serverSide.send({ jsonrpc: '2.0', id: 5, method: 'no/such/method' });
    // What the request gate answers in the SDK's place.
    assert.deepEqual(await reply, { jsonrpc: '2.0', id: 5, error: METHOD_NOT_FOUND });
    await client.close();
  });

  it('the SDK ignores notifications/cancelled for request id 0, and cancelAnyRequestId honours it', async () => {
    const ask = async (seam: boolean) => {
      const server = new Server({ name: 's', version: '0' }, { capabilities: {} });
      const client = new Client({ name: 'c', version: '0' }, { capabilities: { elicitation: { form: {} } } });
      if (seam) cancelAnyRequestId(client);
      let aborted!: () => void;
      const abortSeen = new Promise<'aborted'>((resolve) => (aborted = () => resolve('aborted')));
      let handled!: () => void;
      const handling = new Promise<void>((resolve) => (handled = resolve));
      client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
        extra.signal.addEventListener('abort', aborted);
        handled();
        return new Promise(() => undefined);
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await Promise.all([client.connect(clientSide), server.connect(serverSide)]);
      const controller = new AbortController();
      const asked = server
        .elicitInput(
          { mode: 'form', message: 'Q?', requestedSchema: { type: 'object', properties: {} } },
          {
            signal: controller.signal
          }
        )
        .catch(() => undefined);
      await handling;
      controller.abort('gave up');
      await asked;
      // A ping after the cancel: its answer comes after the client has read the cancel.
      await server.ping();
      const outcome = await Promise.race([abortSeen, Promise.resolve('still running' as const)]);
      await client.close();
      return outcome;
    };
    assert.equal(await ask(false), 'still running', 'the SDK still skips id 0 (drop the seam when this fails)');
    assert.equal(await ask(true), 'aborted');
  });

  it('local copies of @modelcontextprotocol/core constants and schemas match the installed package', () => {
    // core is a dependency of the dev dependency @modelcontextprotocol/server, not of Taskdesk at run time.
    assert.deepEqual(MetaKey, {
      protocolVersion: PROTOCOL_VERSION_META_KEY,
      clientInfo: CLIENT_INFO_META_KEY,
      clientCapabilities: CLIENT_CAPABILITIES_META_KEY,
      serverInfo: SERVER_INFO_META_KEY,
      subscriptionId: SUBSCRIPTION_ID_META_KEY
    });
    assert.equal(RELATED_TASK_META_KEY, CORE_RELATED_TASK_META_KEY);
    for (const version of LEGACY_PROTOCOL_VERSIONS) assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes(version), version);
    const samples: unknown[] = [
      { supportedVersions: ['2026-07-28'], capabilities: {} },
      { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, instructions: 'hi', _meta: { a: 1 } },
      { supportedVersions: '2026-07-28', capabilities: {} },
      { capabilities: {} },
      { supportedVersions: ['2026-07-28'] },
      { supportedVersions: ['2026-07-28'], capabilities: {}, instructions: 5 }
    ];
    for (const sample of samples)
      assert.equal(
        DiscoverResultSchema.safeParse(sample).success,
        CoreDiscoverResultSchema.safeParse(sample).success,
        JSON.stringify(sample)
      );
  });
});
