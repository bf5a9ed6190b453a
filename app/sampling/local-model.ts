import { randomUUID } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import os from 'node:os';
import type {
  ChatHistoryItem,
  ChatModelFunctionCall,
  ChatModelFunctions,
  Llama,
  LlamaChatResponse as LlamaChatResponseOf,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel
} from 'node-llama-cpp';
import type * as NodeLlamaCpp from 'node-llama-cpp';
import { errorMessage } from '../core/errors.js';
import { localModelId } from '../contract/providers.js';

/**
 * Model files (GGUF) run on this computer through node-llama-cpp's bindings of llama.cpp, answered
 * as an OpenAI-compatible server answers: this module is the `fetch` of the `openai` client of a
 * provider that has a `modelFile` (see `provider-client.ts`), so that the sampling engine, the
 * assistant and "Test connection" use such a provider as any other, and no port is opened.
 *
 * The wire format is ours to write (node-llama-cpp speaks its own chat history, not the chat
 * completions API): `GET …/models` lists the file's model, `POST …/chat/completions` answers
 * `stream: true` as server-sent events of `chat.completion.chunk`s ending in `[DONE]`, or one
 * `chat.completion`. Tools become node-llama-cpp's functions, whose calls it returns without
 * running them (`stopReason: 'functionCalls'`), as `tool_calls`.
 *
 * One model file is loaded once (on its first completion; listing its model only checks the
 * file), with one context of one sequence: its completions run one after another, and a
 * conversation that goes on reuses what the sequence already evaluated. Generation runs on
 * llama.cpp's own threads, not on the event loop.
 */

/**
 * What is wrong with a model file's path, found before anything is loaded (see
 * {@link checkModelFile}): nothing there, a folder, something else that is no file (a pipe),
 * a file that cannot be read, or a file that is not GGUF.
 */
export type ModelFileProblem = 'missing' | 'folder' | 'not-a-file' | 'unreadable' | 'not-gguf';

/** A failure of the model file itself (missing, not GGUF, would not load), in words for the person. */
export class LocalModelError extends Error {
  /**
   * `bad-request` when the request is what cannot be answered (a conversation too long for the
   * model's context), `bad-response` for the file or the model itself.
   */
  readonly kind: 'bad-request' | 'bad-response';
  /** Set when the path names no usable file: what is wrong with it. */
  readonly problem: ModelFileProblem | undefined;
  constructor(
    message: string,
    options?: ErrorOptions & { kind?: 'bad-request' | 'bad-response'; problem?: ModelFileProblem }
  ) {
    super(message, options);
    this.name = 'LocalModelError';
    this.kind = options?.kind ?? 'bad-response';
    this.problem = options?.problem;
  }
}

/**
 * A request longer than the model's context (a `bad-request`): `withTools` when it offered tools,
 * whose descriptions take part of the context, so that offering none may be what lets it fit.
 */
export class ContextOverflowError extends LocalModelError {
  readonly withTools: boolean;
  /** The model's context, in tokens. */
  readonly contextSize: number;
  constructor(contextSize: number, withTools: boolean, options?: ErrorOptions) {
    super(
      withTools
        ? `The conversation, with the descriptions of the tools it offers, does not fit the model's context of ${contextSize} tokens: offer fewer tools (or none), or use a model with a larger context.`
        : `The conversation does not fit the model's context of ${contextSize} tokens: start a new conversation, or use a model with a larger context.`,
      { ...options, kind: 'bad-request' }
    );
    this.name = 'ContextOverflowError';
    this.withTools = withTools;
    this.contextSize = contextSize;
  }
}

/** What {@link LocalModels} is given; every field has a default. */
export interface LocalModelOptions {
  /**
   * Threads a generation uses. Default: half the logical cores (llama.cpp runs best on the
   * physical ones), at least 1: on two cores, more than one thread made a 60-token answer take
   * about 1.1 s against 46 ms, the threads waiting on each other.
   */
  threads?: number;
  /** The largest context a model gets, in tokens (default 8,192); less when the model was trained on less. */
  maxContextSize?: number;
}

interface Loaded {
  /** The file as it was loaded (device, inode, size, time of change): a file replaced since is loaded anew. */
  identity: string;
  /** Set when it is freed: a completion it ends says why. */
  unloaded: boolean;
  model: LlamaModel;
  context: LlamaContext;
  sequence: LlamaContextSequence;
  /** The completion under way: the next waits for it (one sequence runs one generation). */
  turn: Promise<unknown>;
}

type Lib = typeof NodeLlamaCpp;

/** An answer, with the tools' calls it made (none when it was given no tools). */
type LlamaChatResponse = LlamaChatResponseOf<ChatModelFunctions>;

/** The model files in use, each loaded once; {@link close} frees them. */
export class LocalModels {
  readonly #options: Required<LocalModelOptions>;
  #lib?: Promise<{ lib: Lib; llama: Llama }>;
  readonly #loaded = new Map<string, Promise<Loaded>>();
  /** By model file being loaded: who is told how far its load is (see {@link toolsRoom}). */
  readonly #progress = new Map<string, Set<(progress: number) => void>>();

  constructor(options: LocalModelOptions = {}) {
    this.#options = {
      threads: options.threads ?? Math.max(1, Math.floor(os.availableParallelism() / 2)),
      maxContextSize: options.maxContextSize ?? 8192
    };
  }

  /** The `fetch` of a provider that runs `modelFile`. */
  fetchFor(modelFile: string): typeof fetch {
    return (input, init) => this.#answer(modelFile, input, init);
  }

  /** Frees every model loaded, and llama.cpp (a model used after this is loaded again). */
  async close(): Promise<void> {
    const loaded = [...this.#loaded.values()];
    this.#loaded.clear();
    for (const each of await Promise.allSettled(loaded)) {
      if (each.status !== 'fulfilled') continue;
      each.value.unloaded = true;
      await each.value.model.dispose();
    }
    const lib = this.#lib;
    this.#lib = undefined;
    if (lib) await (await lib.catch(() => undefined))?.llama.dispose();
  }

  /** Forgets `modelFile`'s loaded model (its provider was removed, or points elsewhere now). */
  async unload(modelFile: string): Promise<void> {
    const loaded = this.#loaded.get(modelFile);
    this.#loaded.delete(modelFile);
    const model = await loaded?.catch(() => undefined);
    if (!model) return;
    model.unloaded = true;
    await model.model.dispose();
  }

  /**
   * What the descriptions of `tools` take of `modelFile`'s context before any message: `tokens`,
   * with nothing else (but `systemPrompt`, when given) in the model's chat format; `room`, what the
   * context holds of them and a conversation once node-llama-cpp keeps a tenth of it for the
   * answer (its default context shift, which can drop old messages but never the tools). More
   * tokens than room: no message can be answered with these tools. Loads the model, as its first
   * completion would (and that completion finds it loaded); `onProgress` is told how far that load
   * is (0 to 1) as llama.cpp says it, while this call waits for it.
   */
  async toolsRoom(
    modelFile: string,
    tools: NonNullable<CompletionRequest['tools']>,
    systemPrompt?: string,
    onProgress?: (progress: number) => void
  ): Promise<{ contextSize: number; tokens: number; room: number }> {
    const loaded = await this.#load(modelFile, onProgress);
    const { lib } = await this.#library();
    const history: ChatHistoryItem[] = [
      ...(systemPrompt ? [{ type: 'system' as const, text: systemPrompt }] : []),
      { type: 'model', response: [] }
    ];
    // The chat format a completion's `LlamaChat` resolves for this model.
    const { contextText } = lib.resolveChatWrapper(loaded.model).generateContextState({
      chatHistory: history,
      availableFunctions: functionsOf(tools)
    });
    const contextSize = loaded.context.contextSize;
    return {
      contextSize,
      tokens: contextText.tokenize(loaded.model.tokenizer).length,
      room: contextSize - Math.max(1, Math.floor(contextSize / 10))
    };
  }

  async #answer(modelFile: string, input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const path = url.pathname.replace(/\/+$/, '');
    if (method === 'GET' && path.endsWith('/models')) {
      await checkModelFile(modelFile);
      const id = localModelId(modelFile);
      return json(200, { object: 'list', data: [{ id, object: 'model', created: 0, owned_by: 'this computer' }] });
    }
    if (method !== 'POST' || !path.endsWith('/chat/completions'))
      return json(404, { error: { message: `A model file answers chat completions only, not ${method} ${path}.` } });
    let request: CompletionRequest;
    try {
      request = JSON.parse(
        typeof init?.body === 'string' ? init.body : new TextDecoder().decode(await bodyBytes(init))
      ) as CompletionRequest;
    } catch (error) {
      return json(400, { error: { message: `The request is not JSON: ${errorMessage(error)}` } });
    }
    // Another model's name is no model of this file's: said, rather than answered as if it were.
    const model = localModelId(modelFile);
    if (request.model !== undefined && request.model !== model)
      return json(404, {
        error: { message: `This model file holds the model ${model}, not ${request.model}.`, code: 'model_not_found' }
      });
    let asked: Asked;
    try {
      asked = askedOf(request);
    } catch (error) {
      return json(400, { error: { message: errorMessage(error) } });
    }
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const loaded = await this.#load(modelFile);
    // Stopped while the model loaded: nothing is generated.
    signal?.throwIfAborted();
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    if (request.stream !== true) {
      const answer = await this.#generate(loaded, asked, signal);
      signal?.throwIfAborted();
      return json(200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message: messageOf(answer), finish_reason: finishOf(answer), logprobs: null }]
      });
    }
    const stopped = new AbortController();
    const stop = () => stopped.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    const encoder = new TextEncoder();
    const chunk = (delta: object, finish: string | null = null) =>
      encoder.encode(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`
      );
    // Closed by the reader (a stop) or at the end: node-llama-cpp may still hand a chunk after a
    // stop, which a closed stream would refuse.
    let closed = false;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (bytes: Uint8Array) => {
          if (!closed) controller.enqueue(bytes);
        };
        // The first piece goes when this completion's turn comes, not while it waits for the one
        // before: a caller's wait for a first piece, then for the next, times the model's work.
        this.#generate(loaded, asked, stopped.signal, {
          started: () => send(chunk({ role: 'assistant', content: '' })),
          text: (text) => send(chunk({ content: text }))
        }).then(
          (answer) => {
            const calls = toolCallsOf(answer);
            if (calls.length > 0) send(chunk({ tool_calls: calls.map((call, index) => ({ index, ...call })) }));
            send(chunk({}, finishOf(answer)));
            send(encoder.encode('data: [DONE]\n\n'));
            if (!closed) controller.close();
            closed = true;
            signal?.removeEventListener('abort', stop);
          },
          (error: unknown) => {
            if (!closed) controller.error(stopped.signal.aborted ? stopped.signal.reason : error);
            closed = true;
            signal?.removeEventListener('abort', stop);
          }
        );
      },
      cancel: (reason) => {
        closed = true;
        stopped.abort(reason);
      }
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }

  /** One completion, after the one under way on the same model. */
  #generate(
    loaded: Loaded,
    asked: Asked,
    signal: AbortSignal | undefined,
    on: { started?: () => void; text?: (text: string) => void } = {}
  ): Promise<LlamaChatResponse> {
    const run = async () => {
      signal?.throwIfAborted();
      const { lib } = await this.#library();
      let chat: InstanceType<Lib['LlamaChat']> | undefined;
      try {
        if (loaded.unloaded) throw new Error('unloaded');
        chat = new lib.LlamaChat({ contextSequence: loaded.sequence, autoDisposeSequence: false });
        on.started?.();
        return await chat.generateResponse(asked.history, {
          // No limit asked: at most a context's worth, where a server would stop (node-llama-cpp
          // shifts the context and writes on for ever otherwise).
          maxTokens: loaded.context.contextSize,
          ...asked.options,
          ...(signal && { signal, stopOnAbortSignal: true }),
          ...(on.text && { onTextChunk: on.text })
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (loaded.unloaded)
          throw new LocalModelError(
            'The model was put away while it answered: its provider changed, or Taskdesk is closing.',
            { cause: error }
          );
        // node-llama-cpp's "The default context shift strategy did not return a history that fits
        // the context size": the conversation, with the tools' descriptions, is longer than the
        // context; "Failed to compress chat history for context shift due to a too long prompt":
        // the person's last message alone is.
        if (/history that fits the context size|Failed to compress chat history/.test(errorMessage(error)))
          throw new ContextOverflowError(loaded.context.contextSize, asked.options.functions !== undefined, {
            cause: error
          });
        throw new LocalModelError(`The model could not answer: ${errorMessage(error)}`, { cause: error });
      } finally {
        chat?.dispose({ disposeSequence: false });
      }
    };
    const done = loaded.turn.then(run, run);
    loaded.turn = done.catch(() => undefined);
    return done;
  }

  #library(): Promise<{ lib: Lib; llama: Llama }> {
    this.#lib ??= (async () => {
      const lib = await import('node-llama-cpp');
      // Never built nor downloaded here: the prebuilt binaries come with the package. Metal on
      // macOS; elsewhere the CPU (the packaged app carries no CUDA or Vulkan build).
      const llama = await lib.getLlama({
        gpu: process.platform === 'darwin' ? 'auto' : false,
        build: 'never',
        progressLogs: false,
        logLevel: lib.LlamaLogLevel.error
      });
      return { lib, llama };
    })();
    const pending = this.#lib;
    // A failed start (no binary for this machine) is tried again next time, not kept.
    pending.catch(() => {
      if (this.#lib === pending) this.#lib = undefined;
    });
    return pending;
  }

  async #load(modelFile: string, onProgress?: (progress: number) => void): Promise<Loaded> {
    const identity = await checkModelFile(modelFile);
    const current = await this.#loaded.get(modelFile)?.catch(() => undefined);
    // Another file at the same path since it was loaded: that one is freed, this one loaded.
    if (current && current.identity !== identity) await this.unload(modelFile);
    let loading = this.#loaded.get(modelFile);
    if (!loading) {
      loading = (async () => {
        let llama: Llama;
        try {
          ({ llama } = await this.#library());
        } catch (error) {
          throw new LocalModelError(`llama.cpp could not start on this computer: ${errorMessage(error)}`, {
            cause: error
          });
        }
        try {
          const model = await llama.loadModel({
            modelPath: modelFile,
            // One load for every caller waiting on it: each is told.
            onLoadProgress: (progress) => {
              for (const told of this.#progress.get(modelFile) ?? []) told(progress);
            }
          });
          const context = await model.createContext({
            contextSize: { max: Math.min(this.#options.maxContextSize, model.trainContextSize) },
            threads: this.#options.threads
          });
          const sequence = context.getSequence();
          return { identity, unloaded: false, model, context, sequence, turn: Promise.resolve() };
        } catch (error) {
          throw new LocalModelError(`The model file ${modelFile} could not be loaded: ${errorMessage(error)}`, {
            cause: error
          });
        }
      })();
      this.#loaded.set(modelFile, loading);
      const pending = loading;
      pending.catch(() => {
        if (this.#loaded.get(modelFile) === pending) this.#loaded.delete(modelFile);
      });
    }
    if (!onProgress) return loading;
    const told = this.#progress.get(modelFile) ?? new Set();
    this.#progress.set(modelFile, told);
    told.add(onProgress);
    try {
      return await loading;
    } finally {
      told.delete(onProgress);
      if (told.size === 0 && this.#progress.get(modelFile) === told) this.#progress.delete(modelFile);
    }
  }
}

/** The model files of this process's providers (see `provider-client.ts`). */
export const localModels = new LocalModels();

/**
 * Refuses a file that is missing, not a regular file (a pipe would hold `open` forever),
 * unreadable, or not GGUF, in words, with its {@link ModelFileProblem}; returns what tells this
 * file from another at its path. Reads 4 bytes: it loads nothing.
 */
export async function checkModelFile(modelFile: string): Promise<string> {
  let handle;
  try {
    const found = await stat(modelFile);
    if (!found.isFile())
      throw new LocalModelError(`The model file ${modelFile} is not a file.`, {
        problem: found.isDirectory() ? 'folder' : 'not-a-file'
      });
    handle = await open(modelFile, 'r');
  } catch (error) {
    if (error instanceof LocalModelError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // A part of the path that is a file (`ENOTDIR`) names nothing either.
    const missing = code === 'ENOENT' || code === 'ENOTDIR';
    throw new LocalModelError(
      missing
        ? `The model file ${modelFile} was not found.`
        : `The model file ${modelFile} could not be read: ${errorMessage(error)}`,
      { cause: error, problem: missing ? 'missing' : 'unreadable' }
    );
  }
  try {
    const magic = Buffer.alloc(4);
    const { bytesRead } = await handle.read(magic, 0, 4, 0);
    if (bytesRead < 4 || magic.toString('latin1') !== 'GGUF')
      throw new LocalModelError(`${modelFile} is not a GGUF model file (it does not start with "GGUF").`, {
        problem: 'not-gguf'
      });
    const found = await handle.stat();
    return `${found.dev}:${found.ino}:${found.size}:${found.mtimeMs}`;
  } catch (error) {
    if (error instanceof LocalModelError) throw error;
    throw new LocalModelError(`The model file ${modelFile} could not be read: ${errorMessage(error)}`, {
      cause: error,
      problem: 'unreadable'
    });
  } finally {
    await handle.close();
  }
}

/** What of a chat completions request this module reads. */
interface CompletionRequest {
  model?: string;
  messages?: unknown;
  tools?: Array<{ type?: string; function?: { name?: string; description?: string; parameters?: unknown } }>;
  tool_choice?: unknown;
  stream?: boolean;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  seed?: number | null;
  stop?: string | string[] | null;
}

interface Message {
  role?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

interface Asked {
  history: ChatHistoryItem[];
  options: {
    maxTokens?: number;
    temperature?: number;
    topP?: number;
    seed?: number;
    customStopTriggers?: string[];
    functions?: ChatModelFunctions;
  };
}

/** The request as node-llama-cpp's chat history and options; what it cannot hold is refused in words. */
function askedOf(request: CompletionRequest): Asked {
  if (!Array.isArray(request.messages) || request.messages.length === 0)
    throw new Error('The request has no messages.');
  const history: ChatHistoryItem[] = [];
  const calls = new Map<string, ChatModelFunctionCall>();
  for (const message of request.messages as Message[]) {
    switch (message.role) {
      case 'system':
      case 'developer':
        history.push({ type: 'system', text: textOf(message.content) });
        break;
      case 'user':
        history.push({ type: 'user', text: textOf(message.content) });
        break;
      case 'assistant': {
        const response: Array<string | ChatModelFunctionCall> = [];
        const text = textOf(message.content ?? '');
        if (text) response.push(text);
        for (const call of message.tool_calls ?? []) {
          const made: ChatModelFunctionCall = {
            type: 'functionCall',
            name: call.function?.name ?? '',
            params: parsedArguments(call.function?.arguments),
            result: undefined
          };
          if (call.id !== undefined) calls.set(call.id, made);
          response.push(made);
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool': {
        const call = message.tool_call_id === undefined ? undefined : calls.get(message.tool_call_id);
        if (!call)
          throw new Error(
            `A tool result answers no tool call of the conversation (${message.tool_call_id ?? 'no id'}).`
          );
        call.result = textOf(message.content);
        break;
      }
      default:
        throw new Error(`A message has a role a model file does not take: ${String(message.role)}.`);
    }
  }
  // The model answers after the history: an empty response of its own for it to fill.
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  const functions = request.tool_choice === 'none' ? {} : functionsOf(request.tools ?? []);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const stop = request.stop == null ? [] : [request.stop].flat();
  return {
    history,
    options: {
      ...(maxTokens != null && { maxTokens }),
      ...(request.temperature != null && { temperature: request.temperature }),
      ...(request.top_p != null && { topP: request.top_p }),
      ...(request.seed != null && { seed: request.seed }),
      ...(stop.length > 0 && { customStopTriggers: stop }),
      ...(Object.keys(functions).length > 0 && { functions })
    }
  };
}

/** Tools of a chat completions request as node-llama-cpp's functions (what is not a named function is left out). */
function functionsOf(tools: NonNullable<CompletionRequest['tools']>): ChatModelFunctions {
  const functions: Record<string, ChatModelFunctions[string]> = {};
  for (const tool of tools) {
    const name = tool.function?.name;
    if (tool.type !== 'function' || !name) continue;
    functions[name] = {
      ...(tool.function?.description !== undefined && { description: tool.function.description }),
      ...(tool.function?.parameters !== undefined && {
        params: tool.function.parameters as NonNullable<ChatModelFunctions[string]['params']>
      })
    };
  }
  return functions;
}

/** A message's text: a string, or its text parts joined. An image or other media is refused. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => {
      if (part.type === 'text') return part.text ?? '';
      throw new Error(`A model file takes text only: this conversation holds ${part.type ?? 'something else'}.`);
    })
    .join('');
}

function parsedArguments(text: string | undefined): unknown {
  if (text === undefined || text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toolCallsOf(answer: LlamaChatResponse) {
  return (answer.functionCalls ?? []).map((call) => ({
    id: `call_${randomUUID()}`,
    type: 'function' as const,
    function: { name: call.functionName, arguments: JSON.stringify(call.params ?? {}) }
  }));
}

function messageOf(answer: LlamaChatResponse) {
  const calls = toolCallsOf(answer);
  return { role: 'assistant', content: answer.response, refusal: null, ...(calls.length > 0 && { tool_calls: calls }) };
}

function finishOf(answer: LlamaChatResponse): string {
  const reason = answer.metadata.stopReason;
  return reason === 'maxTokens' ? 'length' : reason === 'functionCalls' ? 'tool_calls' : 'stop';
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function bodyBytes(init: RequestInit | undefined): Promise<Uint8Array> {
  return new Uint8Array(await new Response(init?.body ?? null).arrayBuffer());
}
