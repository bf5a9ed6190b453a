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
  close(): void;
}

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
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/callback') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
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
  const close = () => {
    if (answered && !answered.headersSent) page(answered, 200, 'Taskdesk stopped waiting for this sign-in.');
    settle.reject(new Error('The sign-in was not completed'));
    server.close();
    server.closeAllConnections();
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
