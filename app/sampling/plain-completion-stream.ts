/**
 * A `fetch` for the `openai` SDK that turns a plain JSON completion, sent where a stream was
 * asked for, into the stream the SDK expects.
 *
 * Some local OpenAI-compatible servers ignore `stream: true` and answer one
 * `chat.completion` object as `application/json`. The SDK then parses the body as Server-Sent
 * Events, finds none, and ends the stream quietly, so the engine would read a finished answer
 * as a dropped connection. The SDK has no option for this (it picks the stream parser from the
 * request, not from the response), so this wrapper rewrites such a response into the
 * equivalent `chat.completion.chunk` events and `[DONE]`; every other response passes through
 * untouched.
 */
export function acceptPlainCompletions(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    // The content type first: a stream answered as a stream never has its request body parsed again.
    if (!response.ok || !isJson(response.headers.get('content-type')) || !askedToStream(init?.body)) return response;
    const text = await response.text();
    let completion: unknown;
    try {
      completion = JSON.parse(text);
    } catch {
      completion = undefined;
    }
    const chunks = chunksOf(completion);
    if (!chunks) {
      // Not a completion: hand the SDK the body it sent, to fail as it would have.
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers
      });
    }
    const headers = new Headers(response.headers);
    headers.set('content-type', 'text/event-stream');
    headers.delete('content-length');
    const body = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

function askedToStream(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    return (JSON.parse(body) as { stream?: unknown }).stream === true;
  } catch {
    return false;
  }
}

function isJson(contentType: string | null): boolean {
  const media = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || media.endsWith('+json');
}

interface PlainChoice {
  index?: number;
  finish_reason?: unknown;
  message?: { role?: unknown; content?: unknown; tool_calls?: unknown };
  [key: string]: unknown;
}

/** The chunks a streaming server would have sent for `completion`, or undefined when it is not one. */
function chunksOf(completion: unknown): Array<Record<string, unknown>> | undefined {
  if (typeof completion !== 'object' || completion === null) return undefined;
  const { object, choices, id, created, model, usage } = completion as Record<string, unknown>;
  if (object !== 'chat.completion' || !Array.isArray(choices)) return undefined;
  const base = { id, object: 'chat.completion.chunk', created, model };
  return (choices as PlainChoice[]).map((choice, position) => {
    const { index, finish_reason, message, logprobs: _logprobs, ...extra } = choice;
    const toolCalls = Array.isArray(message?.tool_calls)
      ? (message.tool_calls as Array<Record<string, unknown>>).map((call, callIndex) => ({ index: callIndex, ...call }))
      : undefined;
    return {
      ...base,
      choices: [
        {
          // Fields a server adds to its choice (vLLM's `stop_reason`) are kept.
          ...extra,
          index: index ?? position,
          delta: {
            role: message?.role ?? 'assistant',
            content: message?.content ?? null,
            ...(toolCalls && { tool_calls: toolCalls })
          },
          finish_reason: finish_reason ?? null
        }
      ],
      ...(usage !== undefined && position === choices.length - 1 && { usage })
    };
  });
}
