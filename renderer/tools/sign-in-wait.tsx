import { useState } from 'react';
import type { PlainCallView } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';

/**
 * A running call its server refused for want of a sign-in (`waitingForSignIn`): that it waits for
 * the person to sign in to the server, and the way to do it (Sign in opens the server's sign-in
 * page, as its card's Sign in does; Cancel on the call, or on the server's card, gives up). The
 * step follows the sign-in the server's card shows: to be started, out in the browser, or done
 * and the server connecting again. The call is sent again by the core, wherever the person is.
 */
export function CallSignInWait({ call }: { call: PlainCallView }) {
  const { client, announce, openExternal } = useDesk();
  const auth = useDeskState((state) => state.servers.find((server) => server.id === call.serverId)?.state.auth);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  if (call.waitingForSignIn !== true) return null;
  const name = call.serverName;
  const step = auth?.status === 'signed-in' ? 'connecting' : auth?.waiting === true ? 'browser' : 'sign-in';

  const signIn = async () => {
    if (busy) return;
    setBusy(true);
    clear();
    try {
      const start = await client.call('auth.signIn', { serverId: call.serverId });
      if (start.type === 'open') {
        openExternal(start.authorizationUrl);
        announce(`The sign-in page of ${name} opened in your browser: finish signing in there.`);
      } else announce(`${name} is signed in.`);
    } catch (error) {
      fail(`Could not start the sign-in to ${name}.`, error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="call-sign-in" data-sign-in-wait={step}>
      <p>
        {step === 'sign-in'
          ? `Waiting for you to sign in to ${name}: the call is sent again once you have.`
          : step === 'browser'
            ? `Waiting for you to finish the sign-in to ${name} in the browser tab that opened: the call is sent again once you have.`
            : `Signed in to ${name}: the call is sent again once it is connected.`}
      </p>
      {step === 'sign-in' ? (
        // A paragraph's margin below it: Sign in stands apart from the call's Cancel under it.
        <p className="actions">
          <button
            type="button"
            className="primary"
            {...busyProps(busy)}
            aria-label={`Sign in to ${name}`}
            onClick={() => void signIn()}
          >
            Sign in
          </button>
        </p>
      ) : null}
      <ActionError failure={failure} onDismiss={clear} />
    </div>
  );
}
