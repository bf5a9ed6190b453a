import { useEffect, useRef } from 'react';
import { alwaysSecret, newEntry, SECRET_LOOKING, type EntryDraft } from './server-draft.js';

/**
 * Env vars or headers being edited: a name, a value and a "Secret" box per row. A secret's
 * value is typed in a password field and, once stored, never shown again: its row says it is
 * stored, typing replaces it, Remove deletes it.
 */
export function EntryList({
  label,
  rows,
  header,
  error,
  errorId,
  onChange
}: {
  label: string;
  rows: EntryDraft[];
  header: boolean;
  error: string | undefined;
  errorId: string;
  onChange: (rows: EntryDraft[]) => void;
}) {
  const noun = header ? 'header' : 'variable';
  const set = (key: number, change: Partial<EntryDraft>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  // Add variable (or header) puts the focus in the new row's name, as Add model does: left on the
  // button, what the person typed next went nowhere, under a placeholder that looked filled in.
  // Remove puts it in the name of the row that takes the removed one's place (the next, else the
  // one before), or on Add once none is left: not on the page, where it went with the button.
  const list = useRef<HTMLUListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<number | 'add' | undefined>(undefined);
  useEffect(() => {
    const next = focusNext.current;
    if (next === undefined) return;
    if (next === 'add') {
      focusNext.current = undefined;
      addButton.current?.focus();
      return;
    }
    if (!rows.some((row) => row.key === next)) return;
    focusNext.current = undefined;
    list.current?.querySelector<HTMLInputElement>(`li[data-entry-key="${next}"] input`)?.focus();
  }, [rows]);
  const remove = (index: number) => {
    const rest = rows.filter((_, other) => other !== index);
    focusNext.current = (rest[index] ?? rest[index - 1])?.key ?? 'add';
    onChange(rest);
  };
  return (
    <fieldset
      className="field entries"
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend>{label}</legend>
      {rows.length === 0 ? <p className="field-hint">None.</p> : null}
      <ul className="entry-rows" ref={list}>
        {rows.map((row, index) => {
          const forced = header && alwaysSecret(row.name);
          const secret = row.secret || forced;
          const name = row.name.trim() || `${noun} ${index + 1}`;
          return (
            <li key={row.key} className="entry-row" data-entry={row.name} data-entry-key={row.key}>
              <input
                type="text"
                aria-label={`Name of ${noun} ${index + 1}`}
                value={row.name}
                placeholder={header ? 'X-Api-Key' : 'API_TOKEN'}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => {
                  const value = event.target.value;
                  // A new row whose name looks like a credential starts as a secret.
                  const guess = !row.stored && row.value === '' && SECRET_LOOKING.test(value);
                  set(row.key, { name: value, ...(guess && { secret: true }) });
                }}
              />
              <input
                type={secret ? 'password' : 'text'}
                aria-label={`Value of ${name}`}
                value={row.value}
                placeholder={row.stored ? 'Stored in the key store; type to replace' : ''}
                autoComplete={secret ? 'new-password' : 'off'}
                spellCheck={false}
                onChange={(event) => set(row.key, { value: event.target.value })}
              />
              <span className="checkbox-row">
                <input
                  id={`secret-${row.key}`}
                  type="checkbox"
                  checked={secret}
                  disabled={forced}
                  onChange={(event) =>
                    // Unticking a stored secret needs its value typed again: it is never shown.
                    set(row.key, { secret: event.target.checked, ...(row.stored && { stored: false, value: '' }) })
                  }
                />
                <label htmlFor={`secret-${row.key}`}>
                  Secret<span className="sr-only"> {name}</span>
                </label>
              </span>
              <button type="button" className="small" aria-label={`Remove ${name}`} onClick={() => remove(index)}>
                Remove
              </button>
            </li>
          );
        })}
      </ul>
      <p className="field-error" id={errorId} hidden={!error}>
        {error ?? ''}
      </p>
      <button
        type="button"
        className="small"
        ref={addButton}
        onClick={() => {
          const row = newEntry();
          focusNext.current = row.key;
          onChange([...rows, row]);
        }}
      >
        Add {noun}
      </button>
    </fieldset>
  );
}
