import type { HostResult, ProviderView } from '../../app/contract/host-api.js';
import { failureOf, listsWords } from './model-listing.js';

/** Where a "Test connection" stands. */
export type TestState =
  { kind: 'testing' } | { kind: 'done'; result: HostResult<'providers.test'> } | { kind: 'error'; message: string };

/** What a failed test is called: a model file on this computer is not connected to. */
export function failedWords(modelFile: boolean): string {
  return modelFile ? 'The model file cannot be used' : 'Connection failed';
}

/**
 * What "Test connection" found: the models (with a way to list those the provider lacks, and a word
 * on those it lists that the server does not offer), or what failed. For a model file, in its own
 * words: there is no server to connect to, the test reads the file.
 */
export function ConnectionTestView({
  provider,
  state,
  onAddModels
}: {
  provider: ProviderView;
  state: TestState | undefined;
  onAddModels: (names: string[]) => void;
}) {
  const result = state?.kind === 'done' ? state.result : undefined;
  const outcome = state ? (state.kind === 'done' ? (state.result.ok ? 'ok' : 'failed') : state.kind) : undefined;
  const className = `test-result${state?.kind === 'error' || (result && !result.ok) ? ' test-failed' : result?.ok ? ' test-ok' : ''}`;
  const listed = new Set(provider.models.map((m) => m.name));
  const unlisted = result?.ok ? result.models.filter((name) => !listed.has(name)) : [];
  // A server that lists no models may still serve them: only a list that leaves some out says so.
  const offered = new Set(result?.ok ? result.models : []);
  const missing = offered.size > 0 ? provider.models.map((m) => m.name).filter((name) => !offered.has(name)) : [];
  const file = provider.modelFile !== undefined;
  return (
    <div className={className} role="status" data-test={outcome}>
      {state?.kind === 'testing' ? (file ? 'Checking the model file…' : 'Testing the connection…') : null}
      {state?.kind === 'error' ? <p>{`Could not test: ${state.message}`}</p> : null}
      {result && !result.ok ? (
        <>
          <p>
            <strong>{`${failedWords(file)}: `}</strong>
            {failureOf(result.message, provider.name)}
          </p>
          {/* The message says what failed in words; the HTTP status is the one detail it may not name. */}
          {result.status !== undefined ? <p className="muted small-text">{`HTTP ${result.status}`}</p> : null}
        </>
      ) : null}
      {result?.ok ? (
        <>
          {/* In the card's words (foundSentence); the list below names them all, not the first few. */}
          <p>
            <strong>{file ? 'Found the model file. ' : 'Connected. '}</strong>
            {result.models.length === 0 ? 'It lists no models.' : `${listsWords(result.models.length)}:`}
          </p>
          {result.models.length > 0 ? (
            <ul className="model-list" aria-label={`Models of ${provider.name}`}>
              {result.models.map((name) => (
                <li key={name}>
                  <code>{name}</code>
                </li>
              ))}
            </ul>
          ) : null}
          {missing.length > 0 ? (
            <p className="test-missing">
              {`Not offered by this ${file ? 'model file' : 'server'}: ${missing.join(', ')}. A conversation or model request that asks for ${missing.length === 1 ? 'it' : 'one of them'} will fail; choose another model, or remove ${missing.length === 1 ? 'it' : 'them'} with Edit.`}
            </p>
          ) : null}
          {unlisted.length > 0 ? (
            <div className="actions">
              <button type="button" className="small" onClick={() => onAddModels(unlisted)}>
                {`Add ${unlisted.length === 1 ? unlisted[0] : `${unlisted.length} models`} to the list`}
              </button>
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
