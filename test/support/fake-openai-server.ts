import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the fake model makes. */
export interface FakeToolCall {
  id: string;
  name: string;
  /** JSON text, sent in two fragments when streamed (as real providers do). */
  arguments: string;
}

/** One scripted answer to `POST /v1/chat/completions`. */
export type FakeChatReply =
  | {
      kind: 'text';
      tokens: string[];
      /** Default `stop`. */
      finishReason?: string;
      /** The model the response names; default the model requested. */
      model?: string;
      /** vLLM's non-standard `stop_reason` (the stop string that matched). */
      stopReason?: string;
      /** Answer one JSON completion even to `stream: true`, as some local servers do. */
      plain?: boolean;
    }
  | {
      kind: 'tool-calls';
      calls: FakeToolCall[];
      text?: string;
      finishReason?: string;
      model?: string;
      /** Answer one JSON completion even to `stream: true`. */
      plain?: boolean;
    }
  | { kind: 'error'; status: number; message?: string; headers?: Record<string, string> }
  /** Streams `tokens`, then destroys the socket without a finish_reason or `[DONE]`. */
  | { kind: 'drop'; tokens: string[] }
  /** Hands the response to the test (`nextHeld()`); with `headers: false` nothing is sent at all. */
  | { kind: 'hold'; headers?: boolean }
  /** `count` tokens, `intervalMs` apart on real timers (0: all at once): the benchmark's steady model. */
  | { kind: 'pace'; count: number; intervalMs: number; token?: string };

/** One scripted answer to `GET /v1/models`. */
export type FakeModelsReply = { kind: 'error'; status: number; message?: string } | { kind: 'hold' };

/** A request the server received, for assertions on the mapped body. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  // Whatever JSON the client sent: tests assert on its shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A streamed response the test drives by hand. */
export interface HeldStream {
  request: RecordedRequest;
  /** Sends the headers (if not sent yet) and one content chunk per token. */
  push(...tokens: string[]): void;
  /** Sends the final chunk and `[DONE]`, and ends the response. */
  finish(finishReason?: string): void;
  /** Resolves when the connection closed, whoever closed it. */
  closed: Promise<void>;
  /** True when the client closed the connection before the response ended. */
  readonly closedByClient: boolean;
}

/** The parts of a chat request a `respond` function reads. */
export interface FakeChatRequestBody {
  tools?: Array<{ function: { name: string } }>;
  messages: Array<{ role: string }>;
}

/** Options of the fake server. */
export interface FakeOpenAIServerOptions {
  /** Models `GET /v1/models` lists; default `['fake-small', 'fake-large']`. */
  models?: string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401 (echoing the key sent, as OpenAI does). */
  apiKey?: string;
  /** When true, a chat request for a model not in `models` gets 404. */
  strictModels?: boolean;
  /** Answers a chat request when the queue is empty, from its body (a model that calls a tool, then answers). */
  respond?: (body: FakeChatRequestBody) => FakeChatReply | undefined;
}

/**
 * An OpenAI-compatible HTTP server on 127.0.0.1 for tests: a real peer for the `openai`
 * SDK, scripted per test.
 *
 * Answers are taken from a queue (`enqueue`), or a short default text when it is empty.
 * Every request is recorded; `waitForRequests(n)` resolves once n have arrived.
 */
export class FakeOpenAIServer extends EventEmitter {
  readonly requests: RecordedRequest[] = [];
  /** How long each paced stream took to send, in ms (real timers drift past count × interval). */
  readonly paceDurations: number[] = [];
  readonly #server: http.Server;
  readonly #options: FakeOpenAIServerOptions;
  readonly #replies: FakeChatReply[] = [];
  readonly #modelsReplies: FakeModelsReply[] = [];
  readonly #held: HeldStream[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  #port = 0;

  private constructor(options: FakeOpenAIServerOptions) {
    super();
    this.#options = options;
    this.#server = http.createServer((req, res) => void this.#handle(req, res));
  }

  /** Starts a server on a free loopback port. */
  static async start(options: FakeOpenAIServerOptions = {}): Promise<FakeOpenAIServer> {
    const server = new FakeOpenAIServer(options);
    server.#server.listen(0, '127.0.0.1');
    await once(server.#server, 'listening');
    server.#port = (server.#server.address() as AddressInfo).port;
    return server;
  }

  get port(): number {
    return this.#port;
  }

  /** The API root the SDK takes as `baseURL`. */
  get baseURL(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  /** Chat requests only, in order. */
  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/v1/chat/completions');
  }

  enqueue(...replies: FakeChatReply[]): this {
    this.#replies.push(...replies);
    return this;
  }

  enqueueModels(...replies: FakeModelsReply[]): this {
    this.#modelsReplies.push(...replies);
    return this;
  }

  /** Resolves once `count` requests (of any kind) have arrived. */
  async waitForRequests(count: number): Promise<RecordedRequest[]> {
    while (this.requests.length < count) await once(this, 'request');
    return this.requests.slice(0, count);
  }

  /** Resolves with the next held stream (one already waiting counts). */
  async nextHeld(): Promise<HeldStream> {
    while (this.#held.length === 0) await once(this, 'held');
    return this.#held.shift()!;
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '').split('?')[0]!;
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      authorization: req.headers.authorization,
      body: raw ? JSON.parse(raw) : undefined
    };
    this.requests.push(recorded);
    this.emit('request', recorded);

    if (this.#options.apiKey !== undefined && recorded.authorization !== `Bearer ${this.#options.apiKey}`) {
      const sent = recorded.authorization?.replace(/^Bearer /, '') ?? '';
      return json(
        res,
        401,
        errorBody(
          `Incorrect API key provided: ${sent}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_api_key'
        )
      );
    }
    if (req.method === 'GET' && path === '/v1/models') return this.#models(res);
    if (req.method === 'POST' && path === '/v1/chat/completions') return this.#chat(recorded, res);
    json(res, 404, errorBody(`Unknown path ${path}`, 'not_found'));
  }

  #models(res: http.ServerResponse): void {
    const reply = this.#modelsReplies.shift();
    if (reply?.kind === 'error')
      return json(res, reply.status, errorBody(reply.message ?? `error ${reply.status}`, 'error'));
    if (reply?.kind === 'hold') return; // never answers: a stalled server
    const models = this.#options.models ?? ['fake-small', 'fake-large'];
    json(res, 200, {
      object: 'list',
      data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' }))
    });
  }

  #chat(request: RecordedRequest, res: http.ServerResponse): void {
    const body = request.body ?? {};
    const requested: string = body.model;
    const models = this.#options.models ?? ['fake-small', 'fake-large'];
    if (this.#options.strictModels && !models.includes(requested)) {
      return json(
        res,
        404,
        errorBody(`The model \`${requested}\` does not exist or you do not have access to it.`, 'model_not_found')
      );
    }
    const reply = this.#replies.shift() ??
      this.#options.respond?.(body) ?? { kind: 'text', tokens: ['Hello', ' from', ' the', ' fake', ' model.'] };
    const stream = body.stream === true;
    const sse = new SseWriter(
      res,
      reply.kind === 'text' || reply.kind === 'tool-calls' ? (reply.model ?? requested) : requested
    );

    switch (reply.kind) {
      case 'error':
        return json(res, reply.status, errorBody(reply.message ?? `error ${reply.status}`, 'error'), reply.headers);
      case 'text':
        if (!stream || reply.plain)
          return json(
            res,
            200,
            completion(
              sse.model,
              { content: reply.tokens.join('') },
              reply.finishReason ?? 'stop',
              reply.stopReason !== undefined ? { stop_reason: reply.stopReason } : {}
            )
          );
        sse.start();
        sse.chunk({ role: 'assistant', content: '' }, null);
        for (const token of reply.tokens) sse.chunk({ content: token }, null);
        sse.chunk(
          {},
          reply.finishReason ?? 'stop',
          reply.stopReason !== undefined ? { stop_reason: reply.stopReason } : {}
        );
        return sse.done();
      case 'tool-calls': {
        const finish = reply.finishReason ?? 'tool_calls';
        const toolCalls = reply.calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments }
        }));
        if (!stream || reply.plain)
          return json(res, 200, completion(sse.model, { content: reply.text ?? null, tool_calls: toolCalls }, finish));
        sse.start();
        sse.chunk({ role: 'assistant', content: reply.text ?? null }, null);
        reply.calls.forEach((c, index) => {
          const half = Math.floor(c.arguments.length / 2);
          sse.chunk(
            {
              tool_calls: [
                { index, id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments.slice(0, half) } }
              ]
            },
            null
          );
          sse.chunk({ tool_calls: [{ index, function: { arguments: c.arguments.slice(half) } }] }, null);
        });
        sse.chunk({}, finish);
        return sse.done();
      }
      case 'drop':
        sse.start();
        for (const token of reply.tokens) sse.chunk({ content: token }, null);
        // Ends the TCP connection once the chunks are flushed, mid-body: the chunked
        // response never gets its terminating chunk, as when a server process dies.
        res.socket?.end();
        return;
      case 'hold':
        return this.#hold(request, res, sse, reply.headers !== false);
      case 'pace': {
        sse.start();
        if (reply.intervalMs <= 0) {
          // As fast as the socket takes it: measures the client, not the server's timers.
          for (let i = 0; i < reply.count; i++) sse.chunk({ content: reply.token ?? ` t${i}` }, null);
          sse.chunk({}, 'stop');
          return sse.done();
        }
        let sent = 0;
        const started = performance.now();
        const tick = () => {
          if (res.destroyed) return;
          if (sent === reply.count) {
            sse.chunk({}, 'stop');
            this.paceDurations.push(performance.now() - started);
            return sse.done();
          }
          sse.chunk({ content: reply.token ?? ` t${sent}` }, null);
          sent++;
          const timer = setTimeout(() => {
            this.#timers.delete(timer);
            tick();
          }, reply.intervalMs);
          this.#timers.add(timer);
        };
        return tick();
      }
    }
  }

  #hold(request: RecordedRequest, res: http.ServerResponse, sse: SseWriter, sendHeaders: boolean): void {
    let closedByClient = false;
    const closed = new Promise<void>((resolve) =>
      res.once('close', () => {
        closedByClient = !res.writableEnded;
        resolve();
      })
    );
    if (sendHeaders) sse.start();
    const held: HeldStream = {
      request,
      push: (...tokens) => {
        sse.start();
        for (const token of tokens) sse.chunk({ content: token }, null);
      },
      finish: (finishReason = 'stop') => {
        sse.start();
        sse.chunk({}, finishReason);
        sse.done();
      },
      closed,
      get closedByClient() {
        return closedByClient;
      }
    };
    this.#held.push(held);
    this.emit('held');
  }
}

/** Writes `chat.completion.chunk` events. */
class SseWriter {
  readonly model: string;
  readonly #res: http.ServerResponse;
  #started = false;

  constructor(res: http.ServerResponse, model: string) {
    this.#res = res;
    this.model = model;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive'
    });
    this.#res.flushHeaders();
  }

  chunk(delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}): void {
    const payload = {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 0,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason, ...extra }]
    };
    this.#res.write(`data: ${JSON.stringify(payload)}\n\n`);
  }

  done(): void {
    this.#res.end('data: [DONE]\n\n');
  }
}

function completion(
  model: string,
  message: Record<string, unknown>,
  finishReason: string,
  choiceExtra: Record<string, unknown> = {}
) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason, ...choiceExtra }],
    usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 }
  };
}

function errorBody(message: string, code: string) {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
