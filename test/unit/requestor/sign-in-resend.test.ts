import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConnectionState } from '../../../app/contract/host-api.js';
import type { PlainCallView } from '../../../app/contract/plain-calls.js';
import { HostError, JsonRpcCode } from '../../../app/core/errors.js';
import { SignInEndedError, SignInRequiredError } from '../../../app/auth/server-oauth.js';
import { signInWait } from '../../../app/host/sign-in-resend.js';
import { PlainCalls } from '../../../app/requestor/plain-calls.js';
import { sendAgainAfterSignIn, signInRefusal, type SignInWait } from '../../../app/requestor/sign-in-refusal.js';
import { ManualClock } from '../../support/manual-clock.js';

const server = { serverId: 's', serverName: 'Books' };

/** A plain call of `Books` through {@link sendAgainAfterSignIn}, on a manual clock, its views kept. */
function harness(idleTimeoutMs = 1_000) {
  const clock = new ManualClock();
  const views: PlainCallView[] = [];
  const calls = new PlainCalls({
    clock,
    idleTimeoutMs,
    waitingOnPerson: () => false,
    onChange: (view) => views.push(view)
  });
  const run = (
    wait: SignInWait | undefined,
    send: (signal: AbortSignal) => Promise<string>,
    sendAgain: (signal: AbortSignal) => Promise<string>
  ): Promise<string | Error> =>
    calls
      .run({ callId: 'c1', ...server, toolName: 'lookup' }, (signal, _progress, waitingForSignIn) =>
        sendAgainAfterSignIn({
          server,
          signal,
          wait,
          waitingForSignIn,
          send: () => send(signal),
          sendAgain: () => sendAgain(signal)
        })
      )
      .catch((error: Error) => error);
  return { clock, views, calls, run };
}

/** A refusal as the SDK's transport throws it: the OAuth fetch's error, as a dispatcher marks it. */
const refusal = () => signInRefusal(new SignInRequiredError('Books', 'https://id.example'))!;

/** A request whose server does not answer: it ends only when aborted, as the SDK's does. */
const unanswered = (signal: AbortSignal) =>
  new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));

describe('a plain call refused for want of a sign-in', () => {
  it('waits without timing out, then is sent again once with its idle timeout in full', async () => {
    const { clock, views, run } = harness();
    let signedIn!: () => void;
    let sentAgain = 0;
    const ended = run(
      (_server, signal) =>
        new Promise<void>((resolve, reject) => {
          signedIn = resolve;
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
      () => Promise.reject(refusal()),
      (signal) => {
        sentAgain += 1;
        return unanswered(signal);
      }
    );
    await clock.advance(0);
    assert.equal(views.at(-1)?.waitingForSignIn, true);
    await clock.advance(60_000);
    assert.equal(views.at(-1)?.state, 'running', 'no timeout while it waits for the sign-in');
    signedIn();
    await clock.advance(0);
    assert.equal(sentAgain, 1);
    assert.equal(views.at(-1)?.waitingForSignIn, undefined);
    await clock.advance(999);
    assert.equal(views.at(-1)?.state, 'running', 'its idle timeout started again in full');
    await clock.advance(1);
    const error = await ended;
    assert.ok(error instanceof HostError);
    assert.match(error.message, /sent no answer or progress for 1 s/);
    assert.equal(views.at(-1)?.state, 'failed');
    assert.equal(views.at(-1)?.waitingForSignIn, undefined);
  });

  it('is never sent again when it failed otherwise, nor waits', async () => {
    const { run } = harness();
    let waited = false;
    let sentAgain = false;
    const refused = new HostError(JsonRpcCode.InternalError, 'Error POSTing to endpoint (HTTP 401)');
    const error = await run(
      async () => void (waited = true),
      () => Promise.reject(refused),
      async () => {
        sentAgain = true;
        return 'again';
      }
    );
    assert.equal(error, refused);
    assert.equal(waited, false);
    assert.equal(sentAgain, false);
  });

  it('fails with why when refused again after the sign-in, and when the sign-in is given up', async () => {
    const again = await harness().run(
      async () => undefined,
      () => Promise.reject(refusal()),
      () => Promise.reject(refusal())
    );
    assert.ok(again instanceof Error);
    assert.equal(
      again.message,
      'Books asked for a sign-in again after you signed in; Taskdesk sends a call again only once. Sign in to Books at https://id.example to use it: press Sign in on its card in Taskdesk.'
    );

    const given = new HostError(
      JsonRpcCode.InternalError,
      'You cancelled the sign-in to Books, so the call was not sent again.'
    );
    const up = await harness().run(
      () => Promise.reject(given),
      () => Promise.reject(refusal()),
      async () => 'never'
    );
    assert.equal(up, given);
  });

  it('is cancelled by the person’s Cancel while it waits', async () => {
    const { calls, views, run, clock } = harness();
    const wait: SignInWait = (_server, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
    const ended = run(
      wait,
      () => Promise.reject(refusal()),
      async () => 'never'
    );
    await clock.advance(0);
    assert.equal(calls.cancel('c1'), true);
    const error = await ended;
    assert.equal((error as HostError).code, JsonRpcCode.RequestCancelled);
    assert.equal(views.at(-1)?.state, 'cancelled');
  });
});

describe('the host’s wait for a sign-in and the connection after it', () => {
  /** `signInWait` over a sign-in settled by hand and states told by hand. */
  function waitParts(options: { registered?: boolean } = {}) {
    const clock = new ManualClock();
    const listeners = new Set<(serverId: string, state: ConnectionState) => void>();
    let settle!: { resolve: () => void; reject: (error: Error) => void };
    const wait = signInWait({
      untilSignedIn: () => new Promise<void>((resolve, reject) => (settle = { resolve, reject })),
      onServerState: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      registered: () => options.registered ?? true,
      clock
    });
    const tell = (state: ConnectionState) => {
      for (const listener of [...listeners]) listener('s', state);
    };
    const waiting = wait(server, new AbortController().signal).then(
      () => 'ready' as const,
      (error: Error) => error
    );
    return { clock, tell, waiting, settle: () => settle, listeners };
  }
  const signedIn: ConnectionState['auth'] = { status: 'signed-in', issuer: 'https://id.example' };

  it('resolves once the connection made after the sign-in is ready', async () => {
    const { tell, waiting, settle, listeners, clock } = waitParts();
    // The connection that asked stays up meanwhile, and its close after the sign-in is not the end.
    tell({ status: 'ready', auth: { status: 'sign-in-required', issuer: 'https://id.example' } });
    settle().resolve();
    tell({ status: 'closed', reason: 'Disconnected by Taskdesk', auth: signedIn });
    tell({ status: 'connecting', auth: signedIn });
    tell({ status: 'ready', auth: signedIn });
    assert.equal(await waiting, 'ready');
    assert.equal(listeners.size, 0, 'it stopped listening');
    assert.equal(clock.pendingTimers, 0, 'its bound is cleared');
  });

  it('says why when the connection after the sign-in fails, or asks for a sign-in again', async () => {
    const failed = waitParts();
    failed.settle().resolve();
    failed.tell({ status: 'connecting', auth: signedIn });
    failed.tell({ status: 'failed', reason: 'Could not connect: HTTP 500', auth: signedIn });
    assert.equal(
      ((await failed.waiting) as Error).message,
      'You signed in to Books, but it could not be connected again, so the call was not sent again. Could not connect: HTTP 500'
    );
    const asked = waitParts();
    asked.tell({ status: 'connecting', auth: signedIn });
    asked.tell({ status: 'failed', reason: 'Could not connect: Sign in…', failedFor: 'sign-in', auth: signedIn });
    assert.match(((await asked.waiting) as Error).message, /^Books asked for a sign-in again after you signed in/);
  });

  it('ends, in words, a sign-in that failed, was cancelled, signed out of, removed, or not completed in time', async () => {
    const cases: Array<[SignInEndedError, boolean, string]> = [
      [
        new SignInEndedError('failed', 'The sign-in was not completed in 10 minutes.'),
        true,
        'The sign-in to Books did not complete, so the call was not sent again: The sign-in was not completed in 10 minutes.'
      ],
      [new SignInEndedError('cancelled'), true, 'You cancelled the sign-in to Books, so the call was not sent again.'],
      [new SignInEndedError('signed-out'), true, 'You signed out of Books, so the call was not sent again.'],
      [new SignInEndedError('closed'), false, 'You removed Books, so the call was not sent again.'],
      [
        new SignInEndedError('closed'),
        true,
        'The sign-in to Books was dropped (its address changed), so the call was not sent again.'
      ]
    ];
    for (const [ended, registered, words] of cases) {
      const { waiting, settle } = waitParts({ registered });
      settle().reject(ended);
      assert.equal(((await waiting) as Error).message, words);
    }
    const { waiting, clock } = waitParts();
    await clock.advance(10 * 60_000);
    assert.equal(
      ((await waiting) as Error).message,
      'The sign-in to Books was not completed in 10 minutes, so the call was not sent again.'
    );
  });
});
