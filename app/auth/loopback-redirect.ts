import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the authorization server sent back to the loopback address. */
export type RedirectOutcome =
  { type: 'code'; code: string; iss?: string } | { type: 'error'; error: string; description?: string };

/** A loopback listener waiting for one authorization response. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`: the `redirect_uri` of this sign-in. */
  readonly redirectUri: string;
  /**
   * Resolves with the first response on `/callback` whose `state` matches; a response with
   * another state (or none) is answered 400 and waited past. Rejects once closed unanswered.
   */
  readonly outcome: Promise<RedirectOutcome>;
  /**
   * Sets the page the browser shows for the matching response: the caller answers once it
   * knows whether the sign-in worked (the browser waits until then).
   */
  respond(page: { ok: boolean; message: string }): void;
  /**
   * Stops waiting. With an `afterword`, the listener stays a while (see {@link AFTERWORD_MS}) to
   * show it to a browser that comes back late (the person cancelled in Taskdesk but went on in
   * the tab): a page that says what happened instead of the browser's "refused to connect". What
   * such a late response carries is never used.
   */
  close(afterword?: string): void;
}

/**
 * How long a closed listener still answers with its afterword: as long as a sign-in is waited
 * for, so a consent page left open meanwhile is covered. It never keeps the process alive.
 */
export const AFTERWORD_MS = 10 * 60_000;

/**
 * Opens a loopback redirect listener on 127.0.0.1 at an ephemeral port (RFC 8252 §7.3: the
 * authorization server accepts any port for a loopback redirect URI).
 *
 * Node's `http` is enough here (one GET, one page); no framework is needed for that.
 */
export async function openLoopbackRedirect(state: string): Promise<LoopbackRedirect> {
  let settle!: { resolve: (outcome: RedirectOutcome) => void; reject: (error: Error) => void };
  const outcome = new Promise<RedirectOutcome>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may await it (a sign-in that is never completed): no unhandled rejection.
  outcome.catch(() => undefined);
  let answered: http.ServerResponse | undefined;
  let done = false;
  let afterword: string | undefined;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (afterword !== undefined) {
      page(response, 400, afterword);
      return;
    }
    const states = url.searchParams.getAll('state');
    if (done || states.length !== 1 || states[0] !== state) {
      page(response, 400, 'This sign-in response is not the one Taskdesk is waiting for (its state does not match).');
      return;
    }
    done = true;
    answered = response;
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const issValues = url.searchParams.getAll('iss');
    if (error !== null) {
      const description = url.searchParams.get('error_description');
      settle.resolve({ type: 'error', error, ...(description !== null && { description }) });
    } else if (code === null || code === '') {
      settle.resolve({ type: 'error', error: 'invalid_request', description: 'The response carried no code.' });
    } else if (issValues.length > 1) {
      settle.resolve({
        type: 'error',
        error: 'invalid_request',
        description: 'The response carried more than one iss.'
      });
    } else {
      settle.resolve({ type: 'code', code, ...(issValues[0] !== undefined && { iss: issValues[0] }) });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  let stopped = false;
  const stop = () => {
    stopped = true;
    server.close();
    server.closeAllConnections();
  };
  const close = (late?: string) => {
    if (answered && !answered.headersSent) page(answered, 200, 'Taskdesk stopped waiting for this sign-in.');
    settle.reject(new Error('The sign-in was not completed'));
    if (stopped) return;
    if (late === undefined) {
      stop();
      return;
    }
    if (afterword === undefined) setTimeout(stop, AFTERWORD_MS).unref();
    afterword = late;
  };
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    outcome,
    respond: ({ ok, message }) => {
      if (answered && !answered.headersSent) page(answered, ok ? 200 : 400, message);
    },
    close
  };
}

function page(response: http.ServerResponse, status: number, message: string): void {
  const text = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  response
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'",
      'cache-control': 'no-store'
    })
    .end(`<!doctype html><meta charset="utf-8"><title>Taskdesk sign-in</title><p>${text}</p>`);
}
