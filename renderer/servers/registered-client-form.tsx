import { useState } from 'react';
import type { ServerView } from '../../app/contract/host-api.js';
import { REGISTERED_REDIRECT_URI } from '../../app/contract/sign-in-words.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * For an authorization server that registers no clients itself: the client the person
 * registered there by hand (its id, a secret if it has one, a scope), and the redirect URI to
 * register it with. The secret goes to the key store and is never shown back; the next
 * sign-in uses this client.
 */
export function RegisteredClientForm({ server }: { server: ServerView }) {
  const { client, announce } = useDesk();
  const [clientId, setClientId] = useState(server.state.auth?.registeredClientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [scope, setScope] = useState('');
  const { failure, fail, clear } = useFailure();
  /**
   * The client id this form saved: "Saved" is said while it is the client the server signs in
   * with, and goes once it is not (automatic registration again, or another window's change).
   */
  const [saved, setSaved] = useState<string | undefined>(undefined);

  const save = async () => {
    clear();
    setSaved(undefined);
    try {
      await client.call('auth.setClient', {
        serverId: server.id,
        clientId: clientId.trim(),
        ...(clientSecret !== '' && { clientSecret }),
        ...(scope.trim() !== '' && { scope: scope.trim() })
      });
      setClientSecret('');
      setSaved(clientId.trim());
      announce(`${server.name} signs in with client ${clientId.trim()} from now on.`);
    } catch (error) {
      fail('The client was not saved.', error);
    }
  };

  return (
    <details className="registered-client">
      <summary>Use a client you registered with the server&apos;s sign-in service</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <p className="field-hint">
          Register Taskdesk there as a native app with the redirect URI <code>{REGISTERED_REDIRECT_URI}</code> (any
          port: Taskdesk listens on one of its own for each sign-in), then enter the client it gives you.
        </p>
        <FieldFrame name="client-id" label="Client ID" required>
          {(wiring) => (
            <input
              {...wiring}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={clientId}
              onChange={(event) => setClientId(event.target.value)}
              required
              aria-required="true"
            />
          )}
        </FieldFrame>
        <FieldFrame
          name="client-secret"
          label="Client secret (if it has one)"
          hint="Kept in the key store, never shown again."
        >
          {(wiring) => (
            <input
              {...wiring}
              type="password"
              autoComplete="off"
              value={clientSecret}
              onChange={(event) => setClientSecret(event.target.value)}
            />
          )}
        </FieldFrame>
        <FieldFrame name="client-scope" label="Scope (if the server names none)">
          {(wiring) => (
            <input
              {...wiring}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={scope}
              onChange={(event) => setScope(event.target.value)}
            />
          )}
        </FieldFrame>
        <ActionError failure={failure} onDismiss={clear} />
        <div className="actions">
          <button type="submit" className="primary" disabled={clientId.trim() === ''}>
            Save client
          </button>
          {saved !== undefined && saved === server.state.auth?.registeredClientId ? (
            <span className="muted">Saved: the next sign-in uses this client.</span>
          ) : null}
        </div>
      </form>
    </details>
  );
}
