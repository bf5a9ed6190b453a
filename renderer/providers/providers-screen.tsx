import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ProviderView, SavedProvider } from '../../app/contract/host-api.js';
import { useDeskState } from '../shell/desk-context.js';
import { LocalDetect } from './local-detect.js';
import type { ModelListing } from './model-listing.js';
import { ProviderCard } from './provider-card.js';
import { keyDroppedNotice, ProviderForm, type ProviderFormHandle } from './provider-form.js';
import { focusInSight } from '../components/focus-screen.js';

/**
 * Where the focus goes once the providers list shows (or no longer shows) a provider: its card
 * (or its Edit button), or the list's start.
 */
type FocusAfter = { providerId: string; present: boolean; edit?: true } | undefined;

/**
 * The LLM providers screen: the saved providers (never their keys), detection of local
 * servers with one-click adding, and the provider form (a server, or a model file on this computer).
 */
export function ProvidersScreen({
  headingRef,
  address
}: {
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** What follows `#providers/` in the address: a provider's id, whose card's heading takes the focus, in sight. */
  address?: string | undefined;
}) {
  const providers = useDeskState((state) => state.providers);
  const known = address !== undefined && providers.some((provider) => provider.id === address);
  useEffect(() => {
    if (known) focusInSight(`provider-${address}-name`);
  }, [address, known]);
  const [editing, setEditing] = useState<{
    provider: ProviderView | undefined;
    nonce: number;
    focus: boolean;
    /** Why the form is open again after a save: the save deleted the key (see `ProviderForm`). */
    keyNotice?: string;
    /** Why the provider's card could not reach it when Edit was pressed (see `ProviderForm`). */
    failed?: string;
  }>({ provider: undefined, nonce: 0, focus: false });
  const form = useRef<ProviderFormHandle>(null);
  const list = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement | null>(null);
  const [focusAfter, setFocusAfter] = useState<FocusAfter>(undefined);
  /**
   * By provider id: what the provider answered when a save in this window, which left it with no
   * model, asked it for its models. Its card says so until the next save, Edit (one that failed
   * stays through Edit, which is what the person opens to fix it) or removal.
   */
  const [listings, setListings] = useState<ReadonlyMap<string, ModelListing>>(new Map());
  const noteListing = useCallback((providerId: string, listing: ModelListing | undefined) => {
    setListings((old) => {
      if (!listing && !old.has(providerId)) return old;
      const next = new Map(old);
      if (listing) next.set(providerId, listing);
      else next.delete(providerId);
      return next;
    });
  }, []);

  useLayoutEffect(() => {
    if (!focusAfter) return;
    const there = providers.some((p) => p.id === focusAfter.providerId);
    if (there !== focusAfter.present) return;
    setFocusAfter(undefined);
    const target = focusAfter.present
      ? list.current?.querySelector<HTMLElement>(
          `[data-provider-id="${CSS.escape(focusAfter.providerId)}"] ${focusAfter.edit ? '.provider-edit' : 'button'}`
        )
      : (list.current?.querySelector<HTMLElement>('button') ?? heading.current);
    target?.focus();
  }, [providers, focusAfter]);

  const edit = useCallback((provider: ProviderView, failed: string | undefined) => {
    // What a listing found is about that save, and the list may change now: it goes. Why it
    // failed stays, as it is what the edit is likely for.
    setListings((old) => {
      if (old.get(provider.id)?.ok !== true) return old;
      const next = new Map(old);
      next.delete(provider.id);
      return next;
    });
    setEditing((old) => ({ provider, nonce: old.nonce + 1, focus: true, ...(failed !== undefined && { failed }) }));
  }, []);
  /** The form starts again empty; the focus goes where the caller puts it (see `focusAfter`). */
  const reset = useCallback(
    () => setEditing((old) => ({ provider: undefined, nonce: old.nonce + 1, focus: false })),
    []
  );
  const modelsAdded = useCallback(
    (providerId: string, names: string[]) => {
      if (editing.provider?.id === providerId) form.current?.addModels(names);
    },
    [editing.provider?.id]
  );
  /**
   * The form, gone with its Save button, has added or saved a provider: the focus goes to its
   * card. A save that deleted the key (the provider moved to another origin) opens the form
   * again on the provider, its API key field saying so, for the key the new address may need;
   * unless it is now a model file, which needs none (the form said so before and on the save).
   */
  const saved = useCallback(
    ({ keyDroppedFor, modelListing, ...provider }: SavedProvider) => {
      noteListing(provider.id, modelListing);
      if (keyDroppedFor && provider.modelFile === undefined) {
        const keyNotice = keyDroppedNotice(keyDroppedFor, provider.baseURL);
        setEditing((old) => ({ provider, nonce: old.nonce + 1, focus: false, keyNotice }));
        return;
      }
      reset();
      setFocusAfter({ providerId: provider.id, present: true });
    },
    [reset, noteListing]
  );
  /** Cancel editing: the form starts again empty, and the focus goes back to the Edit button it came from. */
  const cancelled = useCallback(
    (providerId: string) => {
      reset();
      setFocusAfter({ providerId, present: true, edit: true });
    },
    [reset]
  );
  const removed = useCallback(
    (providerId: string) => {
      if (editing.provider?.id === providerId) reset();
      noteListing(providerId, undefined);
      setFocusAfter({ providerId, present: false });
    },
    [editing.provider?.id, reset, noteListing]
  );

  return (
    <>
      <h2
        id="heading-providers"
        tabIndex={-1}
        ref={(element) => {
          heading.current = element;
          headingRef(element);
        }}
      >
        LLM providers
      </h2>
      <p className="lede">
        OpenAI-compatible services, or model files run on this computer: the Assistant chats with their models, and they
        answer servers’ model requests. Keys are kept in the key store and never shown.
      </p>
      <p className="empty" hidden={providers.length > 0}>
        No provider yet: the Assistant has no model to chat with, and servers’ model requests are answered by a person.
        Add one below, or detect a local server.
      </p>
      <ul className="cards provider-list" aria-label="LLM providers" ref={list}>
        {providers.map((provider, index) => (
          <ProviderCard
            key={provider.id}
            provider={provider}
            position={index}
            count={providers.length}
            listing={listings.get(provider.id)}
            onEdit={edit}
            onModelsAdded={modelsAdded}
            onRemoved={removed}
          />
        ))}
      </ul>
      <LocalDetect
        onAdded={({ id, modelListing }) => {
          noteListing(id, modelListing);
          setFocusAfter({ providerId: id, present: true });
        }}
      />
      <ProviderForm
        key={editing.nonce}
        ref={form}
        editing={editing.provider}
        focus={editing.focus}
        keyNotice={editing.keyNotice}
        failed={editing.failed}
        onCancelled={cancelled}
        onSaved={saved}
      />
    </>
  );
}
