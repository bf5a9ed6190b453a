import { useState } from 'react';
import type { ServerView } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * For an authorization server that registers no clients itself: the client the person
 * registered there by hand (its id, a secret if it has one, a scope). The secret goes to the
 * key store and is never shown back; the next sign-in uses this client.
 */
export function RegisteredClientForm({ server }: { server: ServerView }) {
  const { client, announce } = useDesk();
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [scope, setScope] = useState('');
  const { failure, fail, clear } = useFailure();
  const [saved, setSaved] = useState(false);

  const save = async () => {
    clear();
    setSaved(false);
    try {
      await client.call('auth.setClient', {
        serverId: server.id,
        clientId: clientId.trim(),
        ...(clientSecret !== '' && { clientSecret }),
        ...(scope.trim() !== '' && { scope: scope.trim() })
      });
      setClientSecret('');
      setSaved(true);
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
        <label>
          Client ID
          <input value={clientId} onChange={(event) => setClientId(event.target.value)} required />
        </label>
        <label>
          Client secret (if it has one)
          <input
            type="password"
            autoComplete="off"
            value={clientSecret}
            onChange={(event) => setClientSecret(event.target.value)}
          />
        </label>
        <label>
          Scope (if the server names none)
          <input value={scope} onChange={(event) => setScope(event.target.value)} />
        </label>
        <button type="submit" disabled={clientId.trim() === ''}>
          Save client
        </button>
        {saved ? <p className="muted">Saved: the next sign-in uses this client.</p> : null}
        <ActionError failure={failure} onDismiss={clear} />
      </form>
    </details>
  );
}
