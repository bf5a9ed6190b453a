import { useLayoutEffect, useRef, useState, type FocusEvent } from 'react';
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
 *
 * The focus follows the steps, as on the server's card (`ServerSignIn`), as long as it is here (or
 * was, on what the step took away): after Sign in to the line that says to finish in the browser,
 * once signed in to the line that says the call is sent again, back to Sign in when the page was
 * dropped and the call still waits (a change of client on the server's card).
 */
export function CallSignInWait({ call }: { call: PlainCallView }) {
  const { client, announce, openExternal } = useDesk();
  const auth = useDeskState((state) => state.servers.find((server) => server.id === call.serverId)?.state.auth);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const step = auth?.status === 'signed-in' ? 'connecting' : auth?.waiting === true ? 'browser' : 'sign-in';
  const box = useRef<HTMLDivElement>(null);
  /** Whether the focus is here, or was on what the last step took away (it falls to the page then). */
  const focusHere = useRef(false);
  const shownStep = useRef(step);
  useLayoutEffect(() => {
    const before = shownStep.current;
    shownStep.current = step;
    const here = box.current;
    if (before === step || !focusHere.current || !here) return;
    // Moved elsewhere meanwhile: left there. Focus on this wait's line or button, or fallen to the
    // page with the button the step took away, is moved on.
    const at = document.activeElement;
    if (at && at !== document.body && !here.contains(at)) return;
    (step === 'sign-in'
      ? here.querySelector<HTMLElement>('.sign-in-button')
      : here.querySelector<HTMLElement>('.call-sign-in-waiting')
    )?.focus();
  }, [step]);
  if (call.waitingForSignIn !== true) return null;
  const name = call.serverName;

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
    <div
      className="call-sign-in"
      data-sign-in-wait={step}
      ref={box}
      onFocus={() => (focusHere.current = true)}
      onBlur={(event: FocusEvent) => {
        // One removed with its element (no element it went to) counts as still here.
        const to = event.relatedTarget;
        if (to instanceof Node && !box.current?.contains(to)) focusHere.current = false;
      }}
    >
      {/* Focusable from script only: the focus comes here after Sign in, and once signed in. */}
      <p className="call-sign-in-waiting" tabIndex={-1}>
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
            className="primary sign-in-button"
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
