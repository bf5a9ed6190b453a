import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ProviderView } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { DateTime } from '../components/date-time.js';
import { toHostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';
import { ConnectionTestView, failedWords, type TestState } from './connection-test-view.js';
import { failureOf, foundSentence, isLocalAddress, type ModelListing } from './model-listing.js';
import { ratingsText } from './model-rows.js';

/**
 * One saved provider (never its key): facts, "Test connection", edit, delete key, remove; and,
 * after this window saved it with no model, what the provider answered when asked for its models.
 */
export const ProviderCard = memo(function ProviderCard({
  provider,
  listing,
  onEdit,
  onModelsAdded,
  onRemoved,
  position,
  count
}: {
  provider: ProviderView;
  /** Where it is in the person's order (0: first, the default), of `count` providers. */
  position: number;
  count: number;
  /** What the last save (in this window) got when it asked the provider for its models. */
  listing?: ModelListing | undefined;
  /** `failed`: why the card's last try to reach the provider failed, for the form to say too. */
  onEdit: (provider: ProviderView, failed: string | undefined) => void;
  onModelsAdded: (providerId: string, names: string[]) => void;
  onRemoved: (providerId: string) => void;
}) {
  const { client, store, announce, confirm } = useDesk();
  const [test, setTest] = useState<TestState | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  const headingId = `provider-${provider.id}-name`;
  const defaultModel = provider.defaultModel ?? provider.models[0]?.name;
  // A test's result, newer, says what the listing said: shown instead.
  const shownListing = test === undefined ? listing : undefined;
  const local = isLocalAddress(provider.baseURL);
  /** A model file Taskdesk runs itself: no address to show and no key to speak of. */
  const modelFile = provider.modelFile;
  // Delete key goes once the key is gone: when it had the focus, the focus goes to Edit, not the page.
  const editButton = useRef<HTMLButtonElement>(null);
  const testButton = useRef<HTMLButtonElement>(null);
  const hadKey = useRef(provider.hasKey);
  useLayoutEffect(() => {
    const lost = hadKey.current && !provider.hasKey;
    hadKey.current = provider.hasKey;
    if (lost && (document.activeElement === null || document.activeElement === document.body))
      editButton.current?.focus();
  }, [provider.hasKey]);
  // A test's result is about the settings it ran with: another address, name or key makes it
  // stale (it would name the old address); opening Edit drops one that connected, not a failure.
  useEffect(
    () => setTest((now) => (now?.kind === 'testing' ? now : undefined)),
    [provider.baseURL, provider.modelFile, provider.name, provider.hasKey]
  );

  const runTest = async () => {
    if (test?.kind === 'testing') return;
    setTest({ kind: 'testing' });
    let state: TestState;
    try {
      state = { kind: 'done', result: await client.call('providers.test', { providerId: provider.id }) };
    } catch (error) {
      state = { kind: 'error', message: toHostCallError(error).message };
    }
    setTest(state);
    const ok = state.kind === 'done' && state.result.ok;
    if (modelFile !== undefined)
      announce(`${provider.name}: ${ok ? 'found the model file.' : 'the model file cannot be used.'}`);
    else announce(ok ? `${provider.name}: connected.` : `${provider.name}: the connection failed.`);
  };

  const addModels = async (names: string[]) => {
    const { hasKey: _hasKey, ...settings } = provider;
    clear();
    try {
      await client.call('providers.save', {
        ...settings,
        models: [...provider.models, ...names.map((name) => ({ name }))],
        mode: 'update'
      });
      announce(`Added ${names.length === 1 ? names[0] : `${names.length} models`} to ${provider.name}.`);
      onModelsAdded(provider.id, names);
      // The Add button goes once the list holds its models: the focus goes on to the card's next
      // control, Test connection, rather than to the page (unless the person has gone elsewhere).
      const now = document.activeElement;
      if (now === null || now === document.body || now.closest('.test-result')) testButton.current?.focus();
    } catch (error) {
      fail(`The models were not added to ${provider.name}.`, error);
    }
  };

  const clearKey = async () => {
    const agreed = await confirm({
      title: `Delete the key of ${provider.name}?`,
      body: <p>Taskdesk deletes the stored API key; the provider stays. Requests to it then go without a key.</p>,
      confirmLabel: 'Delete key',
      danger: true
    });
    if (!agreed) return;
    clear();
    try {
      await client.call('providers.clearKey', { providerId: provider.id });
      announce(`Deleted the key of ${provider.name}.`);
    } catch (error) {
      fail(`The key of ${provider.name} was not deleted.`, error);
    }
  };

  // Move up and Move down keep the focus as the card moves (the list may take its element out
  // and put it back): on the button pressed, or at an end, where it goes, on the other one.
  const moveUp = useRef<HTMLButtonElement>(null);
  const moveDown = useRef<HTMLButtonElement>(null);
  const moved = useRef<'up' | 'down' | undefined>(undefined);
  const card = useRef<HTMLLIElement>(null);
  useLayoutEffect(() => {
    const direction = moved.current;
    if (direction === undefined) return;
    moved.current = undefined;
    // Only where the focus was left by the move (on this card, or lost with it): a move that
    // changed nothing here, come true later by another's doing, takes it from nowhere else.
    const now = document.activeElement;
    if (now !== null && now !== document.body && !card.current?.contains(now)) return;
    const pressed = direction === 'up' ? moveUp.current : moveDown.current;
    (pressed ?? (direction === 'up' ? moveDown.current : moveUp.current))?.focus();
  }, [position]);
  const move = async (direction: 'up' | 'down') => {
    clear();
    const to = direction === 'up' ? position - 1 : position + 1;
    try {
      moved.current = direction;
      await client.call('providers.move', { providerId: provider.id, position: to });
      announce(
        to === 0
          ? `Moved ${provider.name} to the top: it is the default now.`
          : `Moved ${provider.name} to place ${to + 1} of ${count}.`
      );
    } catch (error) {
      moved.current = undefined;
      fail(`Could not move ${provider.name}.`, error);
    }
  };

  const remove = async () => {
    // Read when asked, not kept in step: the card would re-render on every conversation's change.
    const using = store.getState().assistant.summaries.filter((s) => s.providerId === provider.id).length;
    const agreed = await confirm({
      title: `Remove ${provider.name}?`,
      body: (
        <>
          <p>{removedWords(provider)}</p>
          {using > 0 ? <p>{conversationsUsing(using)}</p> : null}
        </>
      ),
      confirmLabel: 'Remove',
      danger: true
    });
    if (!agreed) return;
    clear();
    try {
      await client.call('providers.remove', { providerId: provider.id });
      announce(`Removed ${provider.name}.`);
      onRemoved(provider.id);
    } catch (error) {
      fail(`Could not remove ${provider.name}.`, error);
    }
  };

  return (
    <li ref={card} className="card provider" data-provider-id={provider.id} aria-labelledby={headingId}>
      <div className="card-header">
        {/* Focusable for `#providers/<id>` (a failed chat's "Open LLM providers"). */}
        <h3 id={headingId} tabIndex={-1}>
          {provider.name}
        </h3>
        {/* A local server needs no key: without one it is as it should be, and the badge says so.
            A model file takes none at all: its badge says where it runs instead. */}
        {modelFile !== undefined ? (
          <span className="status" data-model-file="true">
            Runs on this computer
          </span>
        ) : (
          <span
            className={`status ${provider.hasKey ? 'status-ready' : ''}`}
            data-key={String(provider.hasKey)}
            data-local={local ? 'true' : undefined}
          >
            {provider.hasKey ? 'Key stored' : local ? 'No key (none needed locally)' : 'No key'}
          </span>
        )}
        {/* The first of several is what runs when nothing else chooses (see `providers.move`). */}
        {count > 1 && position === 0 ? (
          <span
            className="status status-default"
            title="First in your order: model requests run on its default model when the server's preferences choose none, and a first chat starts on it"
          >
            Default
          </span>
        ) : null}
        {/* How its calls went since Taskdesk started (a test, a model request, a conversation): a
            provider that began to fail (an expired key) is seen in the list, not only in a chat. */}
        {provider.health ? (
          <span
            className={`status ${provider.health.ok ? 'status-ready' : 'status-failed'}`}
            data-health={provider.health.ok ? 'answering' : 'failing'}
          >
            {provider.health.ok ? 'Answering' : 'Failing'}
          </span>
        ) : null}
      </div>
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{provider.id}</code>
        </dd>
        {modelFile !== undefined ? (
          <>
            <dt>Model file</dt>
            <dd>
              <code className="url">{modelFile}</code>
            </dd>
          </>
        ) : (
          <>
            <dt>Base URL</dt>
            <dd>
              <code className="url">{provider.baseURL}</code>
            </dd>
          </>
        )}
        {provider.health ? (
          <>
            {/* How its calls went, in words that fit a server and a model file alike. */}
            <dt>Status</dt>
            <dd className="provider-health">
              {provider.health.ok ? 'Answering since ' : 'Failing since '}
              <DateTime iso={provider.health.since} />
              {provider.health.message !== undefined &&
              // The save's failed listing is in sight only where no model is listed (a model file always has one).
              !failureInSight(test, provider.models.length === 0 ? shownListing : undefined, provider.health.message)
                ? `: ${failureOf(provider.health.message, provider.name)}`
                : null}
            </dd>
          </>
        ) : null}
        <dt>Default model</dt>
        <dd>{defaultModel ? <code>{defaultModel}</code> : <span className="muted">none</span>}</dd>
        {provider.tokenLimitParam ? (
          <>
            <dt>Token limit</dt>
            <dd>
              <code>{provider.tokenLimitParam}</code>
            </dd>
          </>
        ) : null}
        <dt>Models</dt>
        <dd>
          {provider.models.length === 0 ? (
            // Nothing can run on it until a model is listed: said, with why the save listed none
            // when it asked, and the way to list them.
            <span
              className="provider-no-model"
              data-listing={shownListing ? (shownListing.ok ? 'none' : 'failed') : undefined}
            >
              {noModelText(provider.name, shownListing)}
            </span>
          ) : (
            <>
              <ul className="model-list" aria-label={`Models listed for ${provider.name}`}>
                {provider.models.map((model) => (
                  <li key={model.name}>
                    <code>{model.name}</code>
                    {ratingsText(model.ratings) ? <span className="muted"> — {ratingsText(model.ratings)}</span> : null}
                  </li>
                ))}
              </ul>
              {shownListing?.ok && shownListing.models.length > 0 ? (
                <div className="provider-listing muted small-text" data-listing="listed">
                  {foundSentence(shownListing.models)}
                </div>
              ) : null}
            </>
          )}
        </dd>
      </dl>
      <ConnectionTestView provider={provider} state={test} onAddModels={(names) => void addModels(names)} />
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        <button
          type="button"
          ref={testButton}
          aria-label={`Test connection to ${provider.name}`}
          {...busyProps(test?.kind === 'testing')}
          onClick={() => void runTest()}
        >
          Test connection
        </button>
        <button
          type="button"
          className="provider-edit"
          ref={editButton}
          aria-label={`Edit ${provider.name}`}
          onClick={() => {
            // A failed connection stays in sight, on the card and in the form: it is what the
            // person opens Edit to fix (a settings change that would make it stale clears it).
            setTest((now) => (now?.kind === 'done' && now.result.ok ? undefined : now));
            onEdit(provider, connectionFailure(test, shownListing, provider.name, modelFile !== undefined));
          }}
        >
          Edit
        </button>
        {provider.hasKey ? (
          <button
            type="button"
            aria-label={`Delete the stored key of ${provider.name}`}
            onClick={() => void clearKey()}
          >
            Delete key
          </button>
        ) : null}
        {count > 1 && position > 0 ? (
          <button type="button" ref={moveUp} aria-label={`Move ${provider.name} up`} onClick={() => void move('up')}>
            Move up
          </button>
        ) : null}
        {count > 1 && position < count - 1 ? (
          <button
            type="button"
            ref={moveDown}
            aria-label={`Move ${provider.name} down`}
            onClick={() => void move('down')}
          >
            Move down
          </button>
        ) : null}
        <button
          type="button"
          className="danger-link"
          aria-label={`Remove ${provider.name}`}
          onClick={() => void remove()}
        >
          Remove
        </button>
      </div>
    </li>
  );
});

/**
 * What a card with no model says: why, when this window's save asked the provider for its models
 * (what failed, or that it names none), and the ways to list one.
 */
function noModelText(name: string, listing: ModelListing | undefined): string {
  if (listing && !listing.ok)
    return `None listed: no model could be listed when it was saved. ${listing.message} Test connection tries again; or add one by name with Edit.`;
  if (listing?.ok)
    return `None listed: ${name} names no models. Test connection asks again; or add one by name with Edit.`;
  return 'None listed: Taskdesk cannot use this provider until one is. Test connection lists the provider’s models, to add them; or add one by name with Edit.';
}

/**
 * Whether the card says `failure` already, in sight: its test's result, or the failed listing of
 * its save ("None listed: … <why>"). The health line then says only since when, not the same
 * sentence again (a later failure otherwise worded is still said).
 */
function failureInSight(test: TestState | undefined, listing: ModelListing | undefined, failure: string): boolean {
  if (test?.kind === 'done') return !test.result.ok && test.result.message === failure;
  return listing !== undefined && !listing.ok && listing.message === failure;
}

/**
 * Why the card's last test or listing could not reach the provider (or, for a model file, use
 * it), in the card's words (see {@link ConnectionTestView}); else undefined. Said in the form that
 * edits the provider `name`, so without that name again.
 */
function connectionFailure(
  test: TestState | undefined,
  listing: ModelListing | undefined,
  name: string,
  modelFile: boolean
): string | undefined {
  if (test?.kind === 'error') return `Could not test: ${test.message}`;
  if (test?.kind === 'done' && !test.result.ok)
    return `${failedWords(modelFile)}: ${failureOf(test.result.message, name)}`;
  if (listing && !listing.ok) return `No model could be listed when it was saved: ${failureOf(listing.message, name)}`;
  return undefined;
}

/** What removing a provider does to the conversations that use it. */
function conversationsUsing(count: number): string {
  return count === 1
    ? '1 conversation uses it: it will need another provider.'
    : `${count} conversations use it: they will need another provider.`;
}

/**
 * What Remove does to a provider, said before it does it: a model file is left where it is (the
 * person may fear for it), and a key is deleted only where there is one.
 */
export function removedWords(provider: { modelFile?: string | undefined; hasKey: boolean }): string {
  const forgets =
    provider.modelFile !== undefined
      ? 'Taskdesk forgets its settings; the model file itself stays where it is.'
      : provider.hasKey
        ? 'Taskdesk forgets its settings and deletes its stored key.'
        : 'Taskdesk forgets its settings.';
  return `${forgets} Servers’ model requests no longer run on it.`;
}
