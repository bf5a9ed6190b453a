import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { fetchThrough } from '../core/network-proxy.js';

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
 * What `fetch` does that matters here is kept: redirects are followed (twenty at most, then it
 * fails), an answer compressed all the same is decompressed (none is asked for: the streams are
 * read as they come), an abort rejects with the signal's reason, and a request that could not be
 * made rejects with `TypeError: fetch failed` caused by what went wrong, as
 * `fetch` rejects (the SDK and {@link classifyProviderError} read the cause). A connection that
 * drops while the answer streams in errors the body with undici's own `other side closed`, as
 * `fetch` does (under its "terminated"). Unlike `fetch`, no port is refused: the "bad ports" of
 * the fetch spec guard web pages, not a desktop app's connection to its model server.
 */
export const providerFetch: typeof fetch = (input, init) => fetchVia(providerDispatcher, input, init);

/**
 * {@link providerFetch} through `base` (a proxy's dispatcher, see `network-proxy.ts`): its own
 * pool of connections, redirects followed as ever.
 */
export function providerFetchThrough(base: Dispatcher): typeof fetch {
  const dispatcher = followingRedirects(base);
  return (input, init) =>
    fetchVia(
      () => dispatcher,
      input,
      init,
      (url, rest) => fetchThrough(url, { ...rest, dispatcher })
    );
}

/**
 * A request made with `request` through `dispatcherOf()`, answered as a `Response`; one whose
 * body is neither text nor bytes (a form, a stream, a `Request`'s: the SDK sends none) goes to
 * `other`.
 */
async function fetchVia(
  dispatcherOf: () => Dispatcher,
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
  other: (url: string | URL, init: Parameters<typeof fetch>[1]) => Promise<Response> = fetch
): Promise<Response> {
  // A `Request` (the SDK sends none) goes as its parts, so that it takes the same way as the rest.
  if (input instanceof Request) return other(input.url, { ...(await requestParts(input)), ...init });
  const body = init?.body;
  if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)) return other(input, init);
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
      dispatcher: dispatcherOf()
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: error });
  }
  const { statusCode } = answer;
  // Past the redirects followed, a redirect is a failure, as `fetch` has it ("redirect count
  // exceeded"); a status `Response` cannot hold (1xx, or past 599), too.
  const stop = (why: string) => {
    // Read to its end and dropped, so that its connection is free again.
    answer.body.dump().catch(() => undefined);
    return new TypeError('fetch failed', { cause: new Error(why) });
  };
  if (REDIRECTS.has(statusCode) && answer.headers.location !== undefined) throw stop('redirect count exceeded');
  if (statusCode < 200 || statusCode > 599) throw stop(`the server answered with status ${statusCode}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.set(name, value);
  }
  if ([204, 205, 304].includes(statusCode) || init?.method === 'HEAD') {
    answer.body.resume();
    return new Response(null, { status: statusCode, headers });
  }
  return new Response(Readable.toWeb(decoded(answer.body, headers)) as ReadableStream<Uint8Array>, {
    status: statusCode,
    headers
  });
}

/** What a `Request` asks, as the init of a `fetch` of its URL. */
async function requestParts(input: Request): Promise<RequestInit> {
  const hasBody = input.method !== 'GET' && input.method !== 'HEAD' && input.body !== null;
  return {
    method: input.method,
    headers: input.headers,
    signal: input.signal,
    redirect: input.redirect,
    ...(hasBody && { body: await input.arrayBuffer() })
  };
}

/** The statuses a redirect is made with, which `fetch` follows. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * The body as it was before its `content-encoding` (gzip, deflate or br; none is asked for, but a
 * server or proxy may compress all the same, an error's body too), which then goes from
 * `headers`, as `fetch` has it. Our own few lines: undici's decompress interceptor is
 * experimental (it warns on every start) and leaves error answers, whose words the failure
 * message quotes, compressed.
 */
function decoded(body: Readable, headers: Headers): Readable {
  const encoding = headers.get('content-encoding')?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return body;
  headers.delete('content-encoding');
  headers.delete('content-length');
  return pipeline(body, decoder, () => undefined);
}

let dispatcher: Dispatcher | undefined;

/** One pool of connections for every provider, kept alive between calls as `fetch`'s is. */
function providerDispatcher(): Dispatcher {
  dispatcher ??= followingRedirects(new Agent());
  return dispatcher;
}

/** `base` following redirects, twenty at most, as `fetch` does. */
function followingRedirects(base: Dispatcher): Dispatcher {
  return base.compose(interceptors.redirect({ maxRedirections: 20 }));
}
