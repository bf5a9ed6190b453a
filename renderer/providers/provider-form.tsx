import { forwardRef, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ProviderSave, ProviderView, SavedProvider } from '../../app/contract/host-api.js';
import { FULL_PATH_NEEDED, isFullPath, LOCAL_MODEL_BASE_URL, localModelId } from '../../app/contract/model-file.js';
import { ActionError, correctingFailure, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { isHttpUrl } from '../components/format.js';
import { TableWrap } from '../components/table-wrap.js';
import { FieldFrame } from '../forms/field-frame.js';
import { toHostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { suggestedId } from '../components/suggested-id.js';
import { useCorrecting } from '../servers/use-correcting.js';
import { listingAnnouncement } from './model-listing.js';
import { AXES, AXIS_HINTS, modelRow, type Axis, type ModelRow } from './model-rows.js';

type ProviderModel = NonNullable<ProviderSave['models']>[number];

/** The fields the host may name in a refusal (`data.fields`), in the form's order. */
const HOST_FIELDS = ['name', 'id', 'baseURL', 'modelFile', 'apiKey'] as const;
type HostField = (typeof HOST_FIELDS)[number];

/**
 * What a provider is: a server that answers the OpenAI-compatible API at a base URL, or a model
 * file (GGUF) that Taskdesk runs on this computer (`modelFile`; no address and no key).
 */
type ProviderKind = 'server' | 'file';
const KINDS: readonly (readonly [ProviderKind, string])[] = [
  ['server', 'A server (OpenAI-compatible API)'],
  ['file', 'A model file on this computer (GGUF)']
];

/** What the providers screen may ask of the form. */
export interface ProviderFormHandle {
  /** Adds models to the form (from "Test connection"); names already listed are skipped. */
  addModels(names: string[]): void;
}

/**
 * The "Add a provider" / "Edit provider" form: name, id (on an add, filled in from the name until
 * the person types one), what the provider is (a server: its base URL and a write-only API key;
 * or a model file on this computer: its full path, no address and no key), the models with their
 * ratings, the default model and, for a server, the token-limit field. Its parent keys it by what
 * it edits, so every edit starts from the provider's saved settings (a model file's with that
 * choice made).
 *
 * The key field is never filled in: the UI does not know the key. Left empty on an edit,
 * the stored key is kept (the host only replaces it when `apiKey` is sent), unless the base URL
 * moves to another origin: the host then deletes it, and the field says so before and after.
 */
export const ProviderForm = forwardRef<
  ProviderFormHandle,
  {
    editing: ProviderView | undefined;
    focus: boolean;
    /**
     * Said by the API key field (which then has the focus): the save that opened this form again
     * deleted the provider's key, as it was for another address.
     */
    keyNotice?: string | undefined;
    /** Why the provider's card could not reach it (a failed test or listing): said under the heading. */
    failed?: string | undefined;
    /** Cancel editing: the form closes, and the screen gives the focus back to the provider's Edit button. */
    onCancelled: (providerId: string) => void;
    /**
     * The provider was added or saved: the form closes, and the screen moves the focus to its
     * card (which says what `modelListing` found); or, when the save deleted its key
     * (`keyDroppedFor`), opens it again for the key.
     */
    onSaved: (saved: SavedProvider) => void;
  }
>(function ProviderForm({ editing, focus, keyNotice, failed, onCancelled, onSaved }, handle) {
  const { client, announce } = useDesk();
  const [id, setId] = useState(editing?.id ?? '');
  /** Whether the person typed the id: until then an add's id follows the name (see {@link suggestedId}). */
  const [idTyped, setIdTyped] = useState(false);
  const [name, setName] = useState(editing?.name ?? '');
  const providers = useDeskState((state) => state.providers);
  const taken = useMemo(() => new Set(providers.map((provider) => provider.id)), [providers]);
  const [kind, setKind] = useState<ProviderKind>(editing?.modelFile !== undefined ? 'file' : 'server');
  const [modelFile, setModelFile] = useState(editing?.modelFile ?? '');
  // A model file's provider keeps the host's stand-in address: not one to show, nor to start from.
  const [baseURL, setBaseURL] = useState(editing && editing.modelFile === undefined ? editing.baseURL : '');
  const [apiKey, setApiKey] = useState('');
  const [rows, setRows] = useState<ModelRow[]>(() =>
    editing && editing.models.length > 0 ? editing.models.map((model) => modelRow(model)) : editing ? [] : [modelRow()]
  );
  const [defaultModel, setDefaultModel] = useState(editing?.defaultModel ?? '');
  const [tokenLimit, setTokenLimit] = useState<string>(editing?.tokenLimitParam ?? '');
  const [errors, setErrors] = useState<Partial<Record<HostField, string>>>({});
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [modelsError, setModelsError] = useState<string | undefined>(undefined);
  const { failure, fail, show, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const controls = useRef(new Map<string, HTMLInputElement>());
  const addModelButton = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<string | undefined>(undefined);

  useLayoutEffect(() => {
    if (keyNotice) controls.current.get('apiKey')?.focus();
    else if (focus) heading.current?.focus();
  }, [focus, keyNotice]);
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const target = focusNext.current === 'add-model' ? addModelButton.current : controls.current.get(focusNext.current);
    focusNext.current = undefined;
    target?.focus();
  });

  useImperativeHandle(handle, () => ({
    addModels: (names) =>
      setRows((old) => [
        ...old,
        ...names.filter((n) => !old.some((row) => row.name.trim() === n)).map((n) => modelRow({ name: n }))
      ])
  }));

  // Saved as a model file, a server's stored key is deleted (the host keeps none for a file): said before.
  const kindHint =
    kind === 'file' && editing?.hasKey
      ? 'Saved as a model file, the provider’s stored API key is deleted: a model file needs none.'
      : undefined;

  const names = [...new Set(rows.map((row) => row.name.trim()).filter(Boolean))];
  if (defaultModel && !names.includes(defaultModel)) names.unshift(defaultModel);

  const ref = (key: string) => (element: HTMLInputElement | null) => {
    if (element) controls.current.set(key, element);
    else controls.current.delete(key);
  };
  const updateRow = (key: number, change: Partial<ModelRow>) =>
    setRows((old) => old.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const file = kind === 'file';
  const trimmed = { id: id.trim(), name: name.trim(), baseURL: file ? LOCAL_MODEL_BASE_URL : baseURL.trim() };
  const trimmedFile = modelFile.trim();
  /** The fields to correct as the form stands, in the form's order (see {@link useCorrecting}). */
  const problems: Array<readonly [HostField, string]> = [];
  if (!trimmed.name) problems.push(['name', 'Required']);
  // An add's Id follows the Name until the person types one: with both empty, the Name is the one
  // thing to correct, and the Id fills itself in from it.
  const idFollowsName = !editing && !idTyped && !trimmed.name;
  if (!trimmed.id && !idFollowsName) problems.push(['id', 'Required']);
  if (file) {
    // The contract's own rule (a full path) and words, said on the field before the host refuses it.
    if (!trimmedFile) problems.push(['modelFile', 'Required']);
    else if (!isFullPath(trimmedFile)) problems.push(['modelFile', FULL_PATH_NEEDED]);
  } else if (!trimmed.baseURL) problems.push(['baseURL', 'Required']);
  else if (!isHttpUrl(trimmed.baseURL)) problems.push(['baseURL', 'Enter an http:// or https:// URL']);
  // After a save that found fields to correct, each field's message follows what is typed, as on
  // the server forms.
  const correcting = useCorrecting(problems, setErrors, { show, clear });

  /** Checks what the user can fix; returns the config, or undefined with the problems shown. */
  const collect = (): ProviderSave | undefined => {
    const fieldErrors: typeof errors = Object.fromEntries(problems);
    const order: string[] = problems.map(([field]) => field);
    const bad = new Set<string>();
    const models: ProviderModel[] = [];
    const messages: string[] = [];
    // A model file holds one model, named after the file (the host lists it so): its ratings only.
    (file ? rows.slice(0, 1) : rows).forEach((row, i) => {
      const ratings: Partial<Record<Axis, number>> = {};
      for (const axis of AXES) {
        const raw = row.ratings[axis].trim();
        const badInput = controls.current.get(`${row.key}:${axis}`)?.validity.badInput === true;
        if (raw === '' && !badInput) continue;
        const value = Number(raw);
        if (raw === '' || !Number.isFinite(value) || value < 0 || value > 1) {
          messages.push(`Model ${i + 1}: ${axis} must be a number from 0 to 1`);
          bad.add(`${row.key}:${axis}`);
          order.push(`${row.key}:${axis}`);
        } else ratings[axis] = value;
      }
      const modelName = file ? (isFullPath(trimmedFile) ? localModelId(trimmedFile) : '') : row.name.trim();
      if (!modelName) {
        if (file) return;
        if (Object.keys(ratings).length > 0) {
          messages.push(`Model ${i + 1}: give it a name or remove the row`);
          bad.add(`${row.key}:name`);
          order.push(`${row.key}:name`);
        }
        return;
      }
      models.push(Object.keys(ratings).length > 0 ? { name: modelName, ratings } : { name: modelName });
    });
    setErrors(fieldErrors);
    setInvalid(bad);
    setModelsError(messages.length > 0 ? messages.join('. ') : undefined);
    if (order.length > 0) {
      if (problems.length > 0) correcting.found(problems.length);
      show(correctingFailure(order.length));
      controls.current.get(order[0]!)?.focus();
      return undefined;
    }
    return {
      ...trimmed,
      // An add never replaces a provider saved under the same id: the host refuses it.
      mode: editing ? 'update' : 'add',
      models,
      ...(defaultModel && !file && { defaultModel }),
      // A model file is run in the process: no request field to choose, and no key to send.
      ...(file
        ? { modelFile: trimmedFile }
        : {
            ...((tokenLimit === 'max_tokens' || tokenLimit === 'max_completion_tokens') && {
              tokenLimitParam: tokenLimit
            }),
            // Empty keeps the stored key: the host replaces a key only when one is sent.
            ...(apiKey.trim() && { apiKey: apiKey.trim() })
          })
    };
  };

  const save = async () => {
    if (busy) return;
    clear();
    const config = collect();
    if (!config) return;
    setBusy(true);
    try {
      const saved = await client.call('providers.save', config);
      correcting.done();
      // Saved with no model, the host asked the provider for its models: said with the save.
      const listed = saved.modelListing ? ` ${listingAnnouncement(saved.modelListing, saved.name)}` : '';
      const done = `${editing ? `Saved ${saved.name}.` : `Added ${saved.name}.`}${listed}`;
      announce(
        saved.keyDroppedFor
          ? `${done} ${saved.modelFile !== undefined ? KEY_DROPPED_FOR_FILE : keyDroppedNotice(saved.keyDroppedFor, saved.baseURL)}`
          : done
      );
      onSaved(saved);
    } catch (error) {
      const what = editing ? `${editing.name} was not saved.` : 'The provider was not added.';
      // What the host says of a field (an id in use) shows on it, once, and the focus goes there.
      const fields = toHostCallError(error).fields;
      const named = HOST_FIELDS.filter((field) => fields[field] !== undefined);
      if (named.length === 0) fail(what, error);
      else {
        setErrors(Object.fromEntries(named.map((field) => [field, fields[field]])));
        show({ what, next: `Correct the marked field${named.length === 1 ? '' : 's'}, then try again.` });
        controls.current.get(named[0]!)?.focus();
      }
    } finally {
      setBusy(false);
    }
  };

  const removeRow = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    setRows(next);
    const target = next[Math.min(index, next.length - 1)];
    focusNext.current = target ? `${target.key}:name` : 'add-model';
  };

  return (
    <form
      className="add-server provider-form"
      noValidate
      aria-labelledby="heading-provider-form"
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 id="heading-provider-form" tabIndex={-1} ref={heading}>
        {editing ? `Edit ${editing.name}` : 'Add a provider'}
      </h3>
      {/* What the edit is likely for, beside the fields that fix it; the card says it too. */}
      {editing && failed !== undefined ? <p className="form-status form-status-failed">{failed}</p> : null}
      <div className="field-row">
        <FieldFrame name="name" label="Name" required hint="What the Desk calls it, e.g. OpenAI." error={errors.name}>
          {(wiring) => (
            <input
              {...wiring}
              ref={ref('name')}
              name="name"
              type="text"
              required
              aria-required="true"
              autoComplete="off"
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                if (!editing && !idTyped) setId(suggestedId(event.target.value, taken));
              }}
            />
          )}
        </FieldFrame>
        <FieldFrame
          name="id"
          label="Id"
          required
          hint={
            editing
              ? "Taskdesk keeps the provider's key and settings under it: it cannot be changed."
              : "Filled in from the name. Taskdesk keeps the provider's key and settings under it, so it cannot be changed later."
          }
          error={errors.id}
        >
          {(wiring) => (
            <input
              {...wiring}
              ref={ref('id')}
              name="id"
              type="text"
              required
              aria-required="true"
              autoComplete="off"
              spellCheck={false}
              readOnly={!!editing}
              value={id}
              onChange={(event) => {
                setId(event.target.value);
                // Emptied, it follows the name again from the next change of the name.
                setIdTyped(event.target.value !== '');
              }}
            />
          )}
        </FieldFrame>
      </div>
      <fieldset className="field provider-kind" aria-describedby={kindHint ? 'provider-kind-hint' : undefined}>
        <legend>What the provider is</legend>
        {KINDS.map(([value, label]) => (
          <div className="checkbox-row" key={value}>
            <input
              id={`provider-kind-${value}`}
              type="radio"
              name="providerKind"
              value={value}
              checked={kind === value}
              onChange={() => setKind(value)}
            />
            <label htmlFor={`provider-kind-${value}`}>{label}</label>
          </div>
        ))}
        {kindHint ? (
          <p className="field-hint" id="provider-kind-hint">
            {kindHint}
          </p>
        ) : null}
      </fieldset>
      {kind === 'file' ? (
        <FieldFrame
          name="modelFile"
          label="Model file"
          required
          hint="The GGUF file’s full path, e.g. /Users/you/models/llama-3.2-1b-q4.gguf. Taskdesk runs it on this computer: no server, no key."
          error={errors.modelFile}
        >
          {(wiring) => (
            <input
              {...wiring}
              ref={ref('modelFile')}
              name="modelFile"
              type="text"
              required
              aria-required="true"
              autoComplete="off"
              spellCheck={false}
              value={modelFile}
              onChange={(event) => setModelFile(event.target.value)}
            />
          )}
        </FieldFrame>
      ) : (
        <>
          <FieldFrame
            name="baseURL"
            label="Base URL"
            required
            hint="The API root including /v1."
            error={errors.baseURL}
          >
            {(wiring) => (
              <input
                {...wiring}
                ref={ref('baseURL')}
                name="baseURL"
                type="text"
                required
                aria-required="true"
                placeholder="https://api.openai.com/v1"
                autoComplete="off"
                spellCheck={false}
                value={baseURL}
                onChange={(event) => setBaseURL(event.target.value)}
              />
            )}
          </FieldFrame>
          <FieldFrame
            name="apiKey"
            label="API key"
            hint={keyHint(editing, baseURL, apiKey, keyNotice)}
            error={errors.apiKey}
          >
            {(wiring) => (
              <input
                {...wiring}
                ref={ref('apiKey')}
                name="apiKey"
                type="password"
                autoComplete="new-password"
                placeholder={
                  editing?.hasKey && !storedKeyMoving(editing, baseURL) ? 'Stored — leave empty to keep it' : ''
                }
                value={apiKey}
                onChange={(event) => setApiKey(event.target.value)}
              />
            )}
          </FieldFrame>
        </>
      )}
      <fieldset className="field models-editor" aria-describedby="models-caption">
        <legend>{kind === 'file' ? 'Model' : 'Models'}</legend>
        <p className="field-hint" id="models-caption">
          {kind === 'file'
            ? 'A model file holds one model, named after the file.'
            : 'Leave the models empty and Taskdesk asks the provider for its models when you save.'}{' '}
          Ratings go from 0 to 1 and steer the model choice; leave one empty for “no opinion”.
        </p>
        <TableWrap label="Models table">
          <table className="models">
            <thead>
              <tr>
                <th scope="col">Model</th>
                {AXES.map((axis) => (
                  <th scope="col" key={axis} title={AXIS_HINTS[axis]}>
                    {axis[0]!.toUpperCase() + axis.slice(1)}
                  </th>
                ))}
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(kind === 'file' ? rows.slice(0, 1) : rows).map((row, i) => (
                <tr key={row.key}>
                  <td>
                    {kind === 'file' ? (
                      // Plain text under the Model column's header (a label on a span is not read).
                      <span className="file-model-name">
                        {isFullPath(modelFile.trim()) ? localModelId(modelFile.trim()) : '(named after the file)'}
                      </span>
                    ) : (
                      <input
                        ref={ref(`${row.key}:name`)}
                        type="text"
                        aria-label={`Model ${i + 1} name`}
                        aria-invalid={invalid.has(`${row.key}:name`) || undefined}
                        autoComplete="off"
                        spellCheck={false}
                        data-model-field="name"
                        value={row.name}
                        onChange={(event) => updateRow(row.key, { name: event.target.value })}
                      />
                    )}
                  </td>
                  {AXES.map((axis) => (
                    <td className="rating" key={axis}>
                      <input
                        ref={ref(`${row.key}:${axis}`)}
                        type="number"
                        min={0}
                        max={1}
                        step={0.05}
                        inputMode="decimal"
                        aria-label={`Model ${i + 1} ${axis}`}
                        aria-invalid={invalid.has(`${row.key}:${axis}`) || undefined}
                        data-model-field={axis}
                        value={row.ratings[axis]}
                        onChange={(event) =>
                          updateRow(row.key, { ratings: { ...row.ratings, [axis]: event.target.value } })
                        }
                      />
                    </td>
                  ))}
                  <td>
                    {kind === 'file' ? null : (
                      <button
                        type="button"
                        className="small danger-link"
                        aria-label={`Remove model ${i + 1}`}
                        onClick={() => removeRow(i)}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
        <p className="field-error" hidden={!modelsError}>
          {modelsError ?? ''}
        </p>
        <div className="actions" hidden={kind === 'file'}>
          <button
            type="button"
            className="small"
            ref={addModelButton}
            onClick={() => {
              const row = modelRow();
              setRows((old) => [...old, row]);
              focusNext.current = `${row.key}:name`;
            }}
          >
            Add model
          </button>
        </div>
      </fieldset>
      <div className="field-row">
        {/* One model in a file: it is the default. */}
        {kind === 'server' ? (
          <FieldFrame name="defaultModel" label="Default model" hint="Used when a request prefers no listed model.">
            {(wiring) => (
              <select
                {...wiring}
                name="defaultModel"
                value={defaultModel}
                onChange={(event) => setDefaultModel(event.target.value)}
              >
                <option value="">(the first model)</option>
                {names.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </select>
            )}
          </FieldFrame>
        ) : null}
        {/* The request field for a server's API: a model file run here has none to choose. */}
        {kind === 'server' ? (
          <FieldFrame name="tokenLimitParam" label="Token limit field">
            {(wiring) => (
              <select
                {...wiring}
                name="tokenLimitParam"
                value={tokenLimit}
                onChange={(event) => setTokenLimit(event.target.value)}
              >
                <option value="">Automatic (from the base URL)</option>
                <option value="max_tokens">max_tokens</option>
                <option value="max_completion_tokens">max_completion_tokens</option>
              </select>
            )}
          </FieldFrame>
        ) : null}
      </div>
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        <button type="submit" className="primary" {...busyProps(busy)}>
          {editing ? 'Save changes' : 'Add provider'}
        </button>
        {editing ? (
          <button type="button" onClick={() => onCancelled(editing.id)}>
            Cancel editing
          </button>
        ) : null}
      </div>
    </form>
  );
});

/**
 * What the API key field says: whether a key is stored; after a save that deleted it, why; and
 * while the base URL is on another origin than the stored key's, that saving deletes it.
 */
function keyHint(
  editing: ProviderView | undefined,
  baseURL: string,
  apiKey: string,
  keyNotice: string | undefined
): string {
  if (keyNotice) return keyNotice;
  if (!editing) return 'Local servers need none. The key is kept in the key store and never shown again.';
  if (!editing.hasKey) return 'No key is stored. Local servers need none.';
  const keyOrigin = storedKeyMoving(editing, baseURL);
  if (keyOrigin && !apiKey.trim())
    return `The stored key is for ${placeOf(keyOrigin, baseURL.trim())}: saved with this new address, the provider loses it. Type it again here if the new address needs it.`;
  return 'A key is stored. Type a new one to replace it; it is never shown.';
}

/** The origin of the stored key, when the base URL typed is on another: saved so, the key goes. */
function storedKeyMoving(editing: ProviderView | undefined, baseURL: string): string | undefined {
  if (!editing?.hasKey) return undefined;
  const keyOrigin = originOf(editing.baseURL);
  const typed = originOf(baseURL.trim());
  return keyOrigin && typed && typed !== keyOrigin ? keyOrigin : undefined;
}

/** What the Desk says once a save that made a provider a model file deleted its key. */
export const KEY_DROPPED_FOR_FILE = 'Its stored API key was deleted: a model file needs none.';

/** What the Desk says once a save deleted a key that was for another origin. */
export function keyDroppedNotice(keyOrigin: string, baseURL: string): string {
  return `The key was for ${placeOf(keyOrigin, baseURL)}, so it was deleted: enter it again for the new address if it needs one.`;
}

/** A URL's origin, or undefined for what is not an http(s) URL (yet). */
function originOf(url: string): string | undefined {
  return isHttpUrl(url) ? new URL(url).origin : undefined;
}

/** Where a key was for, as a person reads it: its host (and port), with the scheme when that changed too. */
function placeOf(keyOrigin: string, baseURL: string): string {
  try {
    const was = new URL(keyOrigin);
    return was.protocol === new URL(baseURL).protocol ? was.host : was.origin;
  } catch {
    return keyOrigin;
  }
}
