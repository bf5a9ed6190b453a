import { useLayoutEffect, useRef, useState, type FocusEvent } from 'react';
import type { ServerView } from '../../app/contract/host-api.js';
import { revocationText } from '../../app/contract/sign-in-words.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { CopyButton } from '../components/copy-button.js';
import { useDesk } from '../shell/desk-context.js';
import { RegisteredClientForm } from './registered-client-form.js';

/**
 * A server's OAuth sign-in on its card: who is signed in (and Sign out); that the server asks
 * the person to sign in at its sign-in service (and Sign in); once agreed, that the sign-in is
 * finished in the browser tab that opened (and Cancel); or "Signed out", with whether the sign-in
 * service revoked the sign-in too (it may stay valid there otherwise). The sign-in page opens
 * in the user's own browser only when they press Sign in (in the app through the main process,
 * in browser mode as a new tab), and can be opened again or its address copied, for a browser
 * that did not open. No Sign in is offered while the connection failed for another reason than
 * the server asking for authorization (it is down): the card's failure says what to do first.
 * The client registered by hand, if any, is named, with the way back to automatic registration.
 * Nothing here ever holds a token.
 *
 * The focus follows the sign-in from step to step, as long as it is in the sign-in (or was, on
 * what the step took away): after Sign in to the line that says to finish in the browser (not to
 * Cancel, which a second press of Enter would press), once signed in to who is signed in, after
 * Sign out to "Signed out", after Cancel (or a sign-in that ended without one) to Sign in.
 *
 * While the card's Disconnect or Remove is on its way (`closing`), its buttons wait as the card's
 * others do (aria-disabled, the focus left where it is): a Sign in then connected a server on its
 * way out.
 */
export function ServerSignIn({ server, closing = false }: { server: ServerView; closing?: boolean }) {
  const { client, store, announce, openExternal } = useDesk();
  /** The page this window opened, for "open this address": the core keeps whether it waits. */
  const [opened, setOpened] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const { failure, fail, clear } = useFailure();
  const auth = server.state.auth;
  const step = signInStep(auth);
  const box = useRef<HTMLDivElement>(null);
  /** Whether the focus is in the sign-in, or was on what the last change took away (it falls to the page then). */
  const focusHere = useRef(false);
  const shownStep = useRef(step);
  useLayoutEffect(() => {
    const before = shownStep.current;
    shownStep.current = step;
    const here = box.current;
    if (before === step || !focusHere.current || !here) return;
    // Moved elsewhere meanwhile (another card, another field, the client form inside this one, where
    // the person may be typing): left there. Focus on the steps' own lines and buttons, or fallen to
    // the page with what the change took away, is moved on.
    const at = document.activeElement;
    if (at && at !== document.body && (!here.contains(at) || at.closest('.registered-client'))) return;
    const next =
      step === 'waiting'
        ? here.querySelector<HTMLElement>('.sign-in-waiting')
        : step === 'signed-in'
          ? here.querySelector<HTMLElement>('.signed-in-as')
          : before === 'signed-in'
            ? (here.querySelector<HTMLElement>('.signed-out') ?? here.querySelector<HTMLElement>('.sign-in-button'))
            : here.querySelector<HTMLElement>('.sign-in-button');
    // No next step offered (the server is down: its card says so): the card keeps the focus.
    (next ?? here.closest<HTMLElement>('li.card'))?.focus();
  }, [step]);
  if (!auth) return null;

  /** Follows the focus into and out of the sign-in; one removed with its element counts as in. */
  const focusProps = {
    ref: box,
    onFocus: () => (focusHere.current = true),
    onBlur: (event: FocusEvent) => {
      const to = event.relatedTarget;
      if (to instanceof Node && !box.current?.contains(to)) focusHere.current = false;
    }
  };

  /** Runs one sign-in action, one at a time, its failure said on the card. */
  const act = async (failed: string, action: () => Promise<void>) => {
    if (busy || closing) return;
    setBusy(true);
    clear();
    try {
      await action();
    } catch (error) {
      fail(failed, error);
    } finally {
      setBusy(false);
    }
  };

  const signIn = () =>
    act(`Could not start the sign-in to ${server.name}.`, async () => {
      const start = await client.call('auth.signIn', { serverId: server.id });
      if (start.type === 'open') {
        setOpened(start.authorizationUrl);
        openExternal(start.authorizationUrl);
        announce(`The sign-in page of ${server.name} opened in your browser: finish signing in there.`);
      } else {
        announce(`${server.name} is signed in.`);
      }
    });

  const cancel = () =>
    act(`Could not cancel the sign-in to ${server.name}.`, async () => {
      await client.call('auth.cancelSignIn', { serverId: server.id });
      setOpened(undefined);
      announce(`Stopped waiting for the sign-in to ${server.name}.`);
    });

  const signOut = () =>
    act(`Could not sign out of ${server.name}.`, async () => {
      const view = await client.call('auth.signOut', { serverId: server.id });
      store.apply('server.state', { serverId: server.id, state: view.state });
      setOpened(undefined);
      announce(`Signed out of ${server.name}.`);
    });

  const forgetClient = () =>
    act(`Could not forget the client registered for ${server.name}.`, async () => {
      await client.call('auth.forgetClient', { serverId: server.id });
      setOpened(undefined);
      announce(`${server.name} registers Taskdesk automatically at the next sign-in.`);
    });

  const registered = auth.registeredClientId;

  if (auth.status === 'signed-in') {
    return (
      <div className="sign-in" data-sign-in="signed-in" {...focusProps}>
        {/* Focusable from script only: the focus comes here once the sign-in finished. */}
        <p className="signed-in-as" tabIndex={-1}>
          {auth.subject ? `Signed in as ${auth.subject}` : 'Signed in'}
          {auth.issuer ? ` at ${auth.issuer}` : ''}
          {registered ? ` with the client you registered (${registered})` : ''}
        </p>
        <button
          type="button"
          {...busyProps(busy || closing)}
          aria-label={`Sign out of ${server.name}`}
          onClick={() => void signOut()}
        >
          Sign out
        </button>
        <ActionError failure={failure} onDismiss={clear} />
      </div>
    );
  }

  const waiting = step === 'waiting';
  // The server could not be reached (or failed otherwise): a sign-in is not what it needs now.
  const failedOtherwise = server.state.status === 'failed' && server.state.failedFor !== 'sign-in';
  return (
    <div className="sign-in" data-sign-in={waiting ? 'waiting' : auth.status} {...focusProps}>
      {waiting ? (
        <>
          {/* Focusable from script only: the focus comes here after Sign in, away from Cancel. */}
          <p role="status" className="sign-in-waiting" tabIndex={-1}>
            Finish the sign-in in the browser tab that opened (waiting…)
          </p>
          <p className="muted">
            {registered
              ? `If that page shows an error such as invalid_client, the client you registered (${registered}) is not known there: cancel, then correct it or use automatic registration.`
              : 'If that page shows an error, or the tab was closed, cancel and sign in again.'}
          </p>
          <div className="actions">
            <button
              type="button"
              {...busyProps(busy || closing)}
              aria-label={`Cancel the sign-in to ${server.name}`}
              onClick={() => void cancel()}
            >
              Cancel
            </button>
          </div>
          {opened ? <SignInAddress serverName={server.name} address={opened} /> : null}
        </>
      ) : failedOtherwise ? null : (
        <>
          {/* "Signed out" is focusable from script only: the focus comes here after Sign out. */}
          <p
            className={auth.status === 'signed-out' ? 'signed-out' : undefined}
            tabIndex={auth.status === 'signed-out' ? -1 : undefined}
          >
            {auth.status === 'signed-out' ? (
              `Signed out of ${server.name}.`
            ) : auth.issuer ? (
              // The address mid-sentence: punctuation after it would read as part of it.
              <>
                {server.name} asks you to sign in at <code className="url">{auth.issuer}</code> before you use it.
              </>
            ) : (
              `${server.name} asks you to sign in before you use it.`
            )}
          </p>
          {auth.status === 'signed-out' && auth.revocation ? (
            <p className={auth.revocation.outcome === 'revoked' ? 'muted revocation' : 'revocation'}>
              {revocationText(auth.issuer, auth.revocation)}
            </p>
          ) : null}
          {auth.reason ? <p className="reason">{auth.reason}</p> : null}
          <div className="actions">
            <button
              type="button"
              className="primary sign-in-button"
              {...busyProps(busy || closing)}
              aria-label={`Sign in to ${server.name}`}
              onClick={() => void signIn()}
            >
              Sign in
            </button>
          </div>
        </>
      )}
      <ActionError failure={failure} onDismiss={clear} />
      {registered ? (
        <p className="registered-client-saved">
          {`Signs in with the client you registered: ${registered}`}{' '}
          <button
            type="button"
            className="link-button"
            {...busyProps(busy || closing)}
            aria-label={`Use automatic registration for ${server.name}`}
            onClick={() => void forgetClient()}
          >
            Use automatic registration
          </button>
        </p>
      ) : null}
      <RegisteredClientForm server={server} />
    </div>
  );
}

/** Where a sign-in stands, as the card shows it: a change moves the focus on (see {@link ServerSignIn}). */
function signInStep(auth: ServerView['state']['auth']) {
  if (!auth) return undefined;
  return auth.status === 'sign-in-required' && auth.waiting === true ? 'waiting' : auth.status;
}

/**
 * The sign-in page handed out, for a browser that did not open: opened again from here, or its
 * address copied. Its address (long: state, PKCE challenge, redirect URI) is not shown whole;
 * the host it is on is, and the whole address is its title and what Copy copies.
 */
function SignInAddress({ serverName, address }: { serverName: string; address: string }) {
  const { openExternal } = useDesk();
  return (
    <div className="sign-in-address">
      <p>
        If no browser opened, open the sign-in page from here, or copy its address into a browser. The page is on{' '}
        <code className="url" title={address}>
          {new URL(address).host}
        </code>{' '}
        and works for this sign-in only.
      </p>
      <div className="actions">
        <button
          type="button"
          aria-label={`Open the sign-in page of ${serverName}`}
          onClick={() => openExternal(address)}
        >
          Open sign-in page
        </button>
        <CopyButton text={address} label={`Copy the address of the sign-in page of ${serverName}`} />
      </div>
    </div>
  );
}
