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
  it('ends cancelled, never said to wait, when it was cancelled before its refusal came', async () => {
    const { calls, views, run } = harness();
    let waits = 0;
    const error = await run(
      (_server, signal) => {
        waits += 1;
        return Promise.reject(signal.reason as Error);
      },
      () => {
        // The person's Cancel while the request was on its way: its refusal comes after it.
        calls.cancel('c1');
        return Promise.reject(refusal());
      },
      async () => 'never'
    );
    assert.equal((error as HostError).code, JsonRpcCode.RequestCancelled);
    assert.equal(waits, 0, 'it did not wait');
    assert.deepEqual(
      views.filter((view) => view.waitingForSignIn === true),
      [],
      'no change said it waits for the sign-in'
    );
    assert.equal(views.at(-1)?.state, 'cancelled');
  });
});

describe('the host’s wait for a sign-in and the connection after it', () => {
  /** `signInWait` over a sign-in settled by hand, and states and the person's acts told by hand. */
  function waitParts(options: { registered?: boolean } = {}) {
    const clock = new ManualClock();
    const listeners = new Set<(serverId: string, state: ConnectionState) => void>();
    const acts = new Set<(serverId: string, words: (serverName: string) => string) => void>();
    let settle!: { resolve: () => void; reject: (error: Error) => void };
    let newPage!: () => void;
    const wait = signInWait({
      untilSignedIn: (_serverId, _signal, onNewPage) => {
        newPage = onNewPage;
        return new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
      },
      onServerState: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onClosedByYou: (listener) => {
        acts.add(listener);
        return () => acts.delete(listener);
      },
      registered: () => options.registered ?? true,
      clock
    });
    const tell = (state: ConnectionState) => {
      for (const listener of [...listeners]) listener('s', state);
    };
    /** The person's act that closes the server's connection, as the host tells it. */
    const act = (words: (serverName: string) => string) => {
      for (const listener of [...acts]) listener('s', words);
    };
    const ended = { value: undefined as 'ready' | Error | undefined };
    const waiting = wait(server, new AbortController().signal).then(
      () => (ended.value = 'ready' as const),
      (error: Error) => (ended.value = error)
    );
    /** The sign-in completed, and the wait was told (its promise callbacks ran). */
    const signedInNow = async () => {
      settle.resolve();
      await clock.advance(0);
    };
    return {
      clock,
      tell,
      act,
      waiting,
      ended,
      settle: () => settle,
      signedInNow,
      newPage: () => newPage(),
      listeners,
      acts
    };
  }
  const signedIn: ConnectionState['auth'] = { status: 'signed-in', issuer: 'https://id.example' };

  it('resolves once the connection made after the sign-in is ready', async () => {
    const { tell, waiting, signedInNow, listeners, acts, clock } = waitParts();
    // The connection that asked stays up meanwhile, and its close after the sign-in is not the end.
    tell({ status: 'ready', auth: { status: 'sign-in-required', issuer: 'https://id.example' } });
    await signedInNow();
    tell({ status: 'closed', reason: 'Disconnected by Taskdesk', auth: signedIn });
    tell({ status: 'connecting', auth: signedIn });
    tell({ status: 'ready', auth: signedIn });
    assert.equal(await waiting, 'ready');
    assert.equal(listeners.size, 0, 'it stopped listening');
    assert.equal(acts.size, 0, 'it stopped listening to the person’s acts');
    assert.equal(clock.pendingTimers, 0, 'its bound is cleared');
  });

  it('takes no state told before the sign-in completed for the connection after it', async () => {
    // The person's Connect is still connecting as the sign-in completes: the host tells its state
    // (now signed in) before the waiters settle, then closes it to connect again.
    const { tell, waiting, ended, signedInNow, clock } = waitParts();
    tell({ status: 'connecting', auth: signedIn });
    await signedInNow();
    tell({ status: 'closed', reason: 'Disconnected by Taskdesk', auth: signedIn });
    await clock.advance(0);
    assert.equal(ended.value, undefined, 'still waiting for the connection after the sign-in');
    tell({ status: 'connecting', auth: signedIn });
    tell({ status: 'ready', auth: signedIn });
    assert.equal(await waiting, 'ready');

    // Nor is a connection that goes ready before the sign-in completed the one after it.
    const early = waitParts();
    early.tell({ status: 'connecting', auth: signedIn });
    early.tell({ status: 'ready', auth: signedIn });
    await early.clock.advance(0);
    assert.equal(early.ended.value, undefined, 'still waiting for the sign-in');
  });

  it('says why when the connection after the sign-in fails, or asks for a sign-in again', async () => {
    const failed = waitParts();
    await failed.signedInNow();
    failed.tell({ status: 'connecting', auth: signedIn });
    failed.tell({ status: 'failed', reason: 'Could not connect: HTTP 500', auth: signedIn });
    assert.equal(
      ((await failed.waiting) as Error).message,
      'You signed in to Books, but it could not be connected again, so the call was not sent again. Could not connect: HTTP 500'
    );
    const asked = waitParts();
    await asked.signedInNow();
    asked.tell({ status: 'connecting', auth: signedIn });
    asked.tell({ status: 'failed', reason: 'Could not connect: Sign in…', failedFor: 'sign-in', auth: signedIn });
    assert.match(((await asked.waiting) as Error).message, /^Books asked for a sign-in again after you signed in/);
  });

  it('ends with the person’s act that closes the server’s connection, before the sign-in or after it', async () => {
    const before = waitParts();
    before.act((name) => `You disconnected ${name}`);
    assert.equal(((await before.waiting) as Error).message, 'You disconnected Books, so the call was not sent again.');
    assert.equal(before.clock.pendingTimers, 0, 'its bound is cleared');

    const after = waitParts();
    await after.signedInNow();
    after.tell({ status: 'connecting', auth: signedIn });
    after.act((name) => `You changed ${name}’s settings, and Taskdesk restarted it`);
    assert.equal(
      ((await after.waiting) as Error).message,
      'You changed Books’s settings, and Taskdesk restarted it, so the call was not sent again.'
    );
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

  it('waits in full for a sign-in page made later (the one before was dropped)', async () => {
    const { waiting, ended, clock, newPage } = waitParts();
    await clock.advance(9 * 60_000);
    // A change of client dropped the page; the person's next Sign in made a new one, waiting 10 minutes.
    newPage();
    await clock.advance(9 * 60_000);
    assert.equal(ended.value, undefined, 'still waiting for the sign-in on the new page');
    await clock.advance(60_000);
    assert.equal(
      ((await waiting) as Error).message,
      'The sign-in to Books was not completed in 10 minutes, so the call was not sent again.'
    );
  });
});
