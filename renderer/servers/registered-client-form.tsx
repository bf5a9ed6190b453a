import { useId, useState } from 'react';
import type { ServerView } from '../../app/contract/host-api.js';
import type { ClientKeyAlgorithm } from '../../app/contract/server-auth.js';
import { REGISTERED_REDIRECT_URI } from '../../app/contract/sign-in-words.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * For an authorization server that registers no clients itself: the client the person
 * registered there by hand (its id, a secret if it has one, a scope), and the redirect URI to
 * register it with. The secret goes to the key store and is never shown back; the next
 * sign-in uses this client.
 *
 * Or, for a machine-to-machine client, sign-in without a browser (OAuth client credentials):
 * the client then proves itself with its secret or with a private key (a pasted PEM and the
 * algorithm it signs with: `private_key_jwt`), one of the two, and signs in by itself whenever
 * the server connects. The key, like the secret, goes to the key store and is never shown back.
 * Its secret goes only to the sign-in service named here, or, left empty, to the one the server
 * names the first time (which is recorded, and shown here from then on).
 */
export function RegisteredClientForm({ server }: { server: ServerView }) {
  const { client, announce } = useDesk();
  const proofGroup = useId();
  /** Signing in without a browser, what the client proves itself with. */
  const [proof, setProof] = useState<'secret' | 'private-key'>('secret');
  const [privateKey, setPrivateKey] = useState('');
  const [keyAlgorithm, setKeyAlgorithm] = useState<ClientKeyAlgorithm>('RS256');
  const withKey = proof === 'private-key';
  const [clientId, setClientId] = useState(server.state.auth?.registeredClientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [scope, setScope] = useState('');
  const [withoutBrowser, setWithoutBrowser] = useState(server.state.auth?.clientCredentials === true);
  // The sign-in service the client belongs to, once given or recorded: saving with it kept keeps it.
  const recorded = server.state.auth?.registeredIssuer;
  const [issuer, setIssuer] = useState(recorded ?? '');
  // Recorded while the form is open (a first sign-in): shown, unless the person typed another.
  const [shownRecorded, setShownRecorded] = useState(recorded);
  if (recorded !== shownRecorded) {
    setShownRecorded(recorded);
    if (issuer === (shownRecorded ?? '')) setIssuer(recorded ?? '');
  }
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
        ...(clientSecret !== '' && !(withoutBrowser && withKey) && { clientSecret }),
        ...(withoutBrowser && withKey && { privateKey: { pem: privateKey.trim(), algorithm: keyAlgorithm } }),
        ...(scope.trim() !== '' && { scope: scope.trim() }),
        ...(withoutBrowser && { clientCredentials: true }),
        ...(withoutBrowser && issuer.trim() !== '' && { issuer: issuer.trim() })
      });
      setClientSecret('');
      setPrivateKey('');
      setSaved(clientId.trim());
      announce(
        withoutBrowser
          ? `${server.name} signs in with client ${clientId.trim()} from now on, without a browser.`
          : `${server.name} signs in with client ${clientId.trim()} from now on.`
      );
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
        {withoutBrowser ? (
          <p className="field-hint">
            {withKey
              ? 'Enter the client ID the sign-in service gave you for this machine, and the private key whose public key you registered there. Taskdesk signs in with them whenever it connects, with no sign-in page.'
              : 'Enter the client ID and secret the sign-in service gave you for this machine. Taskdesk signs in with them whenever it connects, with no sign-in page.'}
          </p>
        ) : (
          <p className="field-hint">
            Register Taskdesk there as a native app with the redirect URI <code>{REGISTERED_REDIRECT_URI}</code> (any
            port: Taskdesk listens on one of its own for each sign-in), then enter the client it gives you.
          </p>
        )}
        <FieldFrame
          name="client-credentials"
          label="Sign in without a browser (client credentials)"
          hint="For a client registered for a machine, not a person. Needs the client secret or a private key."
          checkbox
        >
          {(wiring) => (
            <input
              {...wiring}
              type="checkbox"
              checked={withoutBrowser}
              onChange={(event) => setWithoutBrowser(event.target.checked)}
            />
          )}
        </FieldFrame>
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
        {withoutBrowser ? (
          <fieldset className="field">
            <legend>The client proves itself with</legend>
            {(
              [
                ['secret', 'Its client secret'],
                ['private-key', 'A private key (private_key_jwt)']
              ] as const
            ).map(([value, label]) => (
              <div className="checkbox-row" key={value}>
                <input
                  id={`${proofGroup}-${value}`}
                  type="radio"
                  name={proofGroup}
                  value={value}
                  checked={proof === value}
                  onChange={() => setProof(value)}
                />
                <label htmlFor={`${proofGroup}-${value}`}>{label}</label>
              </div>
            ))}
          </fieldset>
        ) : null}
        {withoutBrowser && withKey ? (
          <>
            <FieldFrame
              name="client-private-key"
              label="Private key (PEM)"
              hint="Paste it whole, from -----BEGIN PRIVATE KEY----- to its END line. Kept in the key store, never shown again; Taskdesk signs each sign-in with it and never sends the key itself."
              required
            >
              {(wiring) => (
                <textarea
                  {...wiring}
                  rows={4}
                  autoComplete="off"
                  spellCheck={false}
                  value={privateKey}
                  onChange={(event) => setPrivateKey(event.target.value)}
                  required
                  aria-required="true"
                />
              )}
            </FieldFrame>
            <FieldFrame
              name="client-key-algorithm"
              label="Key algorithm"
              hint="The one the key was made for: RS or PS for an RSA key, ES256 for an EC P-256 key."
            >
              {(wiring) => (
                <select
                  {...wiring}
                  value={keyAlgorithm}
                  onChange={(event) => setKeyAlgorithm(event.target.value as ClientKeyAlgorithm)}
                >
                  {KEY_ALGORITHMS.map((algorithm) => (
                    <option key={algorithm} value={algorithm}>
                      {algorithm}
                    </option>
                  ))}
                </select>
              )}
            </FieldFrame>
          </>
        ) : null}
        {withoutBrowser && withKey ? null : (
          <FieldFrame
            name="client-secret"
            label={withoutBrowser ? 'Client secret' : 'Client secret (if it has one)'}
            hint="Kept in the key store, never shown again."
            required={withoutBrowser}
          >
            {(wiring) => (
              <input
                {...wiring}
                type="password"
                autoComplete="off"
                value={clientSecret}
                onChange={(event) => setClientSecret(event.target.value)}
                required={withoutBrowser}
                aria-required={withoutBrowser ? 'true' : undefined}
              />
            )}
          </FieldFrame>
        )}
        {withoutBrowser ? (
          <FieldFrame
            name="client-issuer"
            label="Sign-in service address (if you know it)"
            hint="Taskdesk signs in there only, with the secret or the key. Left empty, it signs in at the service the server names the first time, and only there afterwards. To move the client, enter the new address."
          >
            {(wiring) => (
              <input
                {...wiring}
                type="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://"
                value={issuer}
                onChange={(event) => setIssuer(event.target.value)}
              />
            )}
          </FieldFrame>
        ) : null}
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
          <button
            type="submit"
            className="primary"
            disabled={
              clientId.trim() === '' || (withoutBrowser && (withKey ? privateKey.trim() === '' : clientSecret === ''))
            }
          >
            Save client
          </button>
          {saved !== undefined && saved === server.state.auth?.registeredClientId ? (
            <span className="muted">
              {server.state.auth.clientCredentials
                ? 'Saved: Sign in (or Connect) uses this client, without a browser.'
                : 'Saved: the next sign-in uses this client.'}
            </span>
          ) : null}
        </div>
      </form>
    </details>
  );
}

/** The algorithms a client's key may sign with, as the contract lists them (RSA first: the most common). */
const KEY_ALGORITHMS: readonly ClientKeyAlgorithm[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512'
];
