import { useState } from 'react';
import type { ServerView } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk } from '../shell/desk-context.js';
import { RegisteredClientForm } from './registered-client-form.js';

/**
 * A server's OAuth sign-in on its card: who is signed in (and Sign out), or the question
 * "Sign in to <server> at <issuer>?". The sign-in page opens in the user's own browser only
 * when they press Sign in (in the app through the main process, in browser mode as a new tab),
 * and its address is shown too, for a browser that did not open. Nothing here ever holds a token.
 */
export function ServerSignIn({ server }: { server: ServerView }) {
  const { client, store, announce, openExternal } = useDesk();
  const [opened, setOpened] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const { failure, fail, clear } = useFailure();
  const auth = server.state.auth;
  if (!auth) return null;

  const signIn = async () => {
    if (busy) return;
    setBusy(true);
    clear();
    try {
      const start = await client.call('auth.signIn', { serverId: server.id });
      if (start.type === 'open') {
        setOpened(start.authorizationUrl);
        openExternal(start.authorizationUrl);
        announce(`The sign-in page of ${server.name} opened in your browser.`);
      } else {
        announce(`${server.name} is signed in.`);
      }
    } catch (error) {
      fail(`Could not start the sign-in to ${server.name}.`, error);
    } finally {
      setBusy(false);
    }
  };

  const signOut = async () => {
    if (busy) return;
    setBusy(true);
    clear();
    try {
      const view = await client.call('auth.signOut', { serverId: server.id });
      store.apply('server.state', { serverId: server.id, state: view.state });
      setOpened(undefined);
      announce(`Signed out of ${server.name}.`);
    } catch (error) {
      fail(`Could not sign out of ${server.name}.`, error);
    } finally {
      setBusy(false);
    }
  };

  if (auth.status === 'signed-in') {
    return (
      <div className="sign-in" data-sign-in="signed-in">
        <p>
          {auth.subject ? `Signed in as ${auth.subject}` : 'Signed in'}
          {auth.issuer ? ` at ${auth.issuer}` : ''}
        </p>
        <button
          type="button"
          {...busyProps(busy)}
          aria-label={`Sign out of ${server.name}`}
          onClick={() => void signOut()}
        >
          Sign out
        </button>
        <ActionError failure={failure} onDismiss={clear} />
      </div>
    );
  }

  return (
    <div className="sign-in" data-sign-in={auth.status}>
      <p>{`Sign in to ${server.name}${auth.issuer ? ` at ${auth.issuer}` : ''}?`}</p>
      {auth.reason ? <p className="reason">{auth.reason}</p> : null}
      <button type="button" {...busyProps(busy)} aria-label={`Sign in to ${server.name}`} onClick={() => void signIn()}>
        Sign in
      </button>
      <ActionError failure={failure} onDismiss={clear} />
      {opened ? (
        <p className="sign-in-address">
          If no browser opened, open this address: <code className="url">{opened}</code>
        </p>
      ) : null}
      <RegisteredClientForm server={server} />
    </div>
  );
}
