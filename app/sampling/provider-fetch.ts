import { Readable } from 'node:stream';
import { Agent, interceptors, request, type Dispatcher } from 'undici';

/**
 * The `fetch` the `openai` SDK is given for LLM providers: undici's `request`, answered as a
 * `Response`.
 *
 * Node's own `fetch` (undici's, by the WHATWG spec) builds a `Request` for every call, clones it
 * with a tee of its body for the redirect and auth steps the spec has, and runs the spec's fetch
 * algorithm around the same HTTP/1.1 exchange: 0.82 ms of main-thread CPU a streamed completion of
 * five tokens against 0.60 through `request` (side by side, 1,000 requests each, on this
 * project's test LLM server). No library wraps `request` as a `fetch`, so this does, for what the
 * SDK sends: text or bytes. Anything else (a form, a stream, a `Request`) goes to Node's `fetch`.
 *
 * What `fetch` does that matters here is kept: redirects are followed (five at most), a
 * compressed answer is decompressed, an abort rejects with the signal's reason, and a request
 * that could not be made rejects with `TypeError: fetch failed` caused by what went wrong, as
 * `fetch` rejects (the SDK and {@link classifyProviderError} read the cause). A connection that
 * drops while the answer streams in errors the body with undici's own `other side closed`, as
 * `fetch` does (under its "terminated"). Unlike `fetch`, no port is refused: the "bad ports" of
 * the fetch spec guard web pages, not a desktop app's connection to its model server.
 */
export const providerFetch: typeof fetch = async (input, init) => {
  const body = init?.body;
  if (input instanceof Request || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)))
    return fetch(input, init);
  const signal = init?.signal ?? undefined;
  const sent: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (sent[name] = value));
  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(input, {
      method: init?.method ?? 'GET',
      headers: sent,
      ...(body != null && { body }),
      ...(signal && { signal }),
      dispatcher: providerDispatcher()
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: error });
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  const empty = [101, 204, 205, 304].includes(answer.statusCode) || init?.method === 'HEAD';
  if (empty) answer.body.resume();
  return new Response(empty ? null : (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>), {
    status: answer.statusCode,
    headers
  });
};

let dispatcher: Dispatcher | undefined;

/** One pool of connections for every provider, kept alive between calls as `fetch`'s is. */
function providerDispatcher(): Dispatcher {
  dispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 5 }), interceptors.decompress());
  return dispatcher;
}
