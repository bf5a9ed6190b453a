import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

/** A tool call put together from streamed fragments. */
export interface AccumulatedToolCall {
  id: string;
  name: string;
  /** The JSON arguments as the model wrote them. */
  arguments: string;
}

/** What a finished (or interrupted) stream added up to. */
export interface AccumulatedCompletion {
  text: string;
  toolCalls: AccumulatedToolCall[];
  /** The provider's `finish_reason`; null until the final chunk arrives. */
  finishReason: string | null;
  /** The model the provider says it ran (may differ from the one asked for). */
  model: string | undefined;
  /**
   * The stop string that ended generation, where the provider reports it: vLLM sends it
   * as the non-standard `stop_reason` field on the choice; OpenAI and Ollama do not.
   */
  matchedStop: string | undefined;
  /** Number of chunks that carried content or tool-call text: a token count in practice. */
  deltas: number;
}

/**
 * Builds a completion from chat-completion chunks as they stream in.
 *
 * Tool calls arrive in fragments keyed by `index` (id and name first, arguments in
 * pieces); only the first choice is read, since the engine never asks for `n > 1`.
 */
export class StreamAccumulator {
  #text = '';
  #toolCalls = new Map<number, AccumulatedToolCall>();
  #finishReason: string | null = null;
  #model: string | undefined;
  #matchedStop: string | undefined;
  #deltas = 0;

  /** Adds one chunk; returns the text it added (empty when none). */
  add(chunk: ChatCompletionChunk): string {
    if (chunk.model) this.#model = chunk.model;
    const choice = chunk.choices?.[0];
    if (!choice) return '';
    const delta = choice.delta ?? {};
    const added = typeof delta.content === 'string' ? delta.content : '';
    if (added) {
      this.#text += added;
      this.#deltas++;
    }
    for (const fragment of delta.tool_calls ?? []) {
      const index = fragment.index ?? this.#toolCalls.size;
      const call = this.#toolCalls.get(index) ?? { id: '', name: '', arguments: '' };
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
      this.#toolCalls.set(index, call);
      this.#deltas++;
    }
    if (choice.finish_reason) this.#finishReason = choice.finish_reason;
    const stopReason = (choice as { stop_reason?: unknown }).stop_reason;
    if (typeof stopReason === 'string') this.#matchedStop = stopReason;
    return added;
  }

  get text(): string {
    return this.#text;
  }

  get deltas(): number {
    return this.#deltas;
  }

  result(): AccumulatedCompletion {
    return {
      text: this.#text,
      toolCalls: [...this.#toolCalls.entries()].sort(([a], [b]) => a - b).map(([, call]) => ({ ...call })),
      finishReason: this.#finishReason,
      model: this.#model,
      matchedStop: this.#matchedStop,
      deltas: this.#deltas
    };
  }
}
