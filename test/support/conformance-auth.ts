/**
 * The `auth/*` client scenarios of the MCP conformance suite, run through the host API as a
 * person would: connect, and whenever the server's card asks "Sign in to … at …?", agree
 * (`auth.signIn`) and let a headless "browser" follow the authorization page. The suite's
 * authorization server approves at once and redirects to Taskdesk's loopback listener; this
 * browser fetches the page, reads its redirect and delivers it to that listener, exactly as a
 * real browser would hand it over.
 */
import assert from 'node:assert/strict';
import type { Host } from '../../app/host/host.js';
import type { ConnectionState } from '../../app/contract/host-api.js';
import { ClientKeyAlgorithmSchema } from '../../app/contract/server-auth.js';
import { nextEvent } from './host-fixture.js';

/** The client ID metadata document URL the suite expects for `auth/basic-cimd` (its example client's). */
export const CONFORMANCE_CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** Sign-ins one scenario may need at most (sign in, step up twice, a moved authorization server). */
const MAX_SIGN_INS = 5;

/**
 * What the suite passes in `MCP_CONFORMANCE_CONTEXT` (pre-registration: the client's credentials;
 * `auth/client-credentials-jwt`: a private key in PKCS#8 PEM and the algorithm to sign with).
 */
export interface AuthContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
}

/**
 * Runs one auth scenario against the mock server known to `host` as `serverId`; with
 * `clientCredentials` (the extension's `auth/client-credentials-*` scenarios), the client the
 * suite gives signs in without a browser, as the person chooses on the registered-client form.
 */
export async function runAuthScenario(
  host: Host,
  serverId: string,
  context: AuthContext | undefined,
  options: { clientCredentials?: boolean } = {}
): Promise<void> {
  if (context?.client_id) {
    await host.call('auth.setClient', {
      serverId,
      clientId: context.client_id,
      ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
      ...(options.clientCredentials === true && { clientCredentials: true }),
      // Pasted on the form as a person would, with the algorithm chosen there.
      ...(context.private_key_pem !== undefined && {
        privateKey: {
          pem: context.private_key_pem,
          algorithm: ClientKeyAlgorithmSchema.parse(context.signing_algorithm)
        }
      })
    });
  }
  const signIns = { left: MAX_SIGN_INS };
  await withSignIn(host, serverId, signIns, async () => {
    const view = await host.call('servers.connect', { serverId });
    if (view.state.status !== 'ready') throw new Error(`connecting: ${view.state.reason ?? view.state.status}`);
  });
  const tools = await withSignIn(host, serverId, signIns, () => host.call('tools.list', { serverId, refresh: true }));
  const tool = tools.find((candidate) => candidate.name === 'test-tool') ?? tools[0];
  if (!tool) return;
  await withSignIn(host, serverId, signIns, async () => {
    // A call the server refuses for want of a sign-in (a step-up) waits for it and is sent again
    // once the person signed in: sign in while it waits (or give up on it when no sign-in is left).
    const callId = `conformance-${signIns.left}`;
    // Whether the call waits now: another change while it waits is no new refusal (one sign-in each).
    let waiting = false;
    const off = host.on('call.changed', ({ call }) => {
      if (call.callId !== callId) return;
      const waitedBefore = waiting;
      waiting = call.waitingForSignIn === true;
      if (!waiting || waitedBefore) return;
      if (signIns.left <= 0) {
        void host.call('tools.cancelCall', { callId }).catch(() => undefined);
        return;
      }
      signIns.left -= 1;
      // A sign-in that fails ends the waiting call with why: the call's own failure says it.
      void signInHeadlessly(host, serverId).catch(() => undefined);
    });
    try {
      const outcome = await host.call('tools.call', { serverId, name: tool.name, arguments: {}, callId });
      assert.equal(outcome.type, 'result', `${tool.name} was called plainly`);
    } finally {
      off();
    }
  });
}

/** Runs `step`; when it failed because the server's card asks for a sign-in, signs in and runs it again. */
async function withSignIn<T>(
  host: Host,
  serverId: string,
  signIns: { left: number },
  step: () => Promise<T>
): Promise<T> {
  for (;;) {
    try {
      return await step();
    } catch (error) {
      const state = await serverState(host, serverId);
      if (state.auth?.status !== 'sign-in-required' || state.auth.reason !== undefined || signIns.left <= 0)
        throw error;
      signIns.left -= 1;
      await signInHeadlessly(host, serverId);
    }
  }
}

/** Agrees to the sign-in, follows the page headlessly and waits for the host to connect again. */
export async function signInHeadlessly(host: Host, serverId: string): Promise<void> {
  // Signed in, the host connects again: wait for that connection to end up ready or failed.
  let connecting = false;
  const reconnected = nextEvent(host, 'server.state', ({ serverId: id, state }) => {
    if (id !== serverId) return false;
    if (state.auth?.reason !== undefined) return true;
    if (state.auth?.status !== 'signed-in') return false;
    if (state.status === 'connecting') connecting = true;
    return connecting && (state.status === 'ready' || state.status === 'failed');
  });
  const start = await host.call('auth.signIn', { serverId });
  if (start.type === 'signed-in') return;
  await headlessBrowser(start.authorizationUrl);
  const { state } = await reconnected;
  if (state.auth?.reason !== undefined) throw new Error(state.auth.reason);
}

/**
 * A browser that needs no person: opens the authorization page, follows its redirect to the
 * loopback listener, and gives back the page it ends on.
 */
export async function headlessBrowser(authorizationUrl: string): Promise<{ status: number; text: string }> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 5; hop++) {
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location)
      return { status: response.status, text: await response.text() };
    await response.body?.cancel();
    url = new URL(location, url).href;
  }
  throw new Error(`The authorization page redirected more than five times (last ${url})`);
}

async function serverState(host: Host, serverId: string): Promise<ConnectionState> {
  const servers = await host.call('servers.list', {});
  const server = servers.find((candidate) => candidate.id === serverId);
  assert.ok(server, `server ${serverId} is listed`);
  return server.state;
}
