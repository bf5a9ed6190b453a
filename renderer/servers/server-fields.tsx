import type { ReactNode } from 'react';
import { ChoiceOptions } from '../components/filter-fields.js';
import { FieldFrame, useFieldId } from '../forms/field-frame.js';
import { useDesk } from '../shell/desk-context.js';
import { commandUrlWords, withCommandSplit } from './command-split.js';
import { EntryList } from './entry-list.js';
import type { DraftField, ServerDraft } from './server-draft.js';

const PROTOCOLS: Array<[ServerDraft['protocol'], string]> = [
  ['auto', 'Auto (probe, then remember)'],
  ['2025-11-25', 'MCP 2025-11-25'],
  ['2026-07-28', 'MCP 2026-07-28']
];

/**
 * Every field of a server but its id, shared by the Add and Edit forms: name, transport,
 * command, arguments, working directory and env (stdio), URL and headers (HTTP), protocol and
 * auto-connect. `register` collects the inputs, so that a form can focus the first wrong one.
 * `afterName` goes between the name and the rest (the Add form's Id, which follows from the name).
 */
export function ServerFields({
  draft,
  errors,
  onChange,
  register,
  autoConnectLabel,
  nameWarning,
  commandFound,
  afterName
}: {
  draft: ServerDraft;
  errors: Partial<Record<DraftField, string>>;
  onChange: (draft: ServerDraft) => void;
  register: (field: DraftField, element: HTMLElement | null) => void;
  autoConnectLabel: string;
  /** Said on the Name field as it is typed, before any Save (another server's name). */
  nameWarning?: string | undefined;
  /** Where the saved command was found when it last connected: said only while that command is typed. */
  commandFound?: { command: string; executable: string } | undefined;
  afterName?: ReactNode;
}) {
  const group = useFieldId('transport');
  /** Said on Command as an address is typed into it, before any Save (which refuses it). */
  const commandIsUrl = draft.transport === 'stdio' ? commandUrlWords(draft.command) : undefined;
  const { announce } = useDesk();
  const set = (change: Partial<ServerDraft>) => onChange({ ...draft, ...change });
  /**
   * A command line in Command is split as it is pasted or left: before any Save, so that the
   * person sees what will run (the field says what it did, a screen reader is told too).
   */
  const split = (next: ServerDraft) => {
    const parted = withCommandSplit(next);
    if (parted?.commandSplit) announce(parted.commandSplit);
    if (parted || next !== draft) onChange(parted ?? next);
  };
  const text = (field: 'name' | 'command' | 'url' | 'cwd') => ({
    name: field,
    value: draft[field],
    autoComplete: 'off',
    spellCheck: false,
    onChange: (event: { target: { value: string } }) => set({ [field]: event.target.value }),
    ...(field !== 'cwd' && { ref: (element: HTMLInputElement | null) => register(field, element) })
  });
  return (
    <>
      <FieldFrame
        name="name"
        label="Name"
        required
        error={errors.name}
        hint={
          nameWarning && !errors.name ? (
            <span className="field-warning">
              <span aria-hidden="true">⚠ </span>
              {nameWarning}
            </span>
          ) : undefined
        }
      >
        {(wiring) => <input {...wiring} {...text('name')} type="text" required aria-required="true" />}
      </FieldFrame>
      {afterName}
      <fieldset className="field">
        <legend>Transport</legend>
        {(
          [
            ['stdio', 'Local command (stdio)'],
            ['http', 'Streamable HTTP']
          ] as const
        ).map(([value, label]) => (
          <div className="checkbox-row" key={value}>
            <input
              id={`${group}-${value}`}
              type="radio"
              name={group}
              value={value}
              checked={draft.transport === value}
              onChange={() =>
                // The address typed into Command, which the field said is one, is taken to URL.
                set({
                  transport: value,
                  ...(value === 'http' &&
                    !draft.url.trim() &&
                    commandUrlWords(draft.command) && { url: draft.command.trim() })
                })
              }
            />
            <label htmlFor={`${group}-${value}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      {draft.transport === 'stdio' ? (
        <div className="transport-fields">
          <FieldFrame
            name="command"
            label="Command"
            required
            error={errors.command}
            hint={
              draft.commandSplit ??
              (commandIsUrl && !errors.command ? (
                <span className="field-warning">
                  <span aria-hidden="true">⚠ </span>
                  {commandIsUrl}
                </span>
              ) : undefined) ??
              // Only what was looked up: the command is looked up when the server connects.
              (commandFound && draft.command.trim() === commandFound.command
                ? `Found: it runs ${commandFound.executable}.`
                : "Looked up on your login shell's PATH when the server connects; or give its full path.")
            }
          >
            {(wiring) => (
              <input
                {...wiring}
                {...text('command')}
                onChange={(event) => {
                  const next = { ...draft, command: event.target.value, commandSplit: undefined };
                  if ((event.nativeEvent as InputEvent).inputType === 'insertFromPaste') split(next);
                  else onChange(next);
                }}
                onBlur={() => split(draft)}
                type="text"
                placeholder="npx"
                required
                aria-required="true"
              />
            )}
          </FieldFrame>
          <FieldFrame name="args" label="Arguments" hint="One argument per line.">
            {(wiring) => (
              <textarea
                {...wiring}
                name="args"
                // As tall as its lines, 3 to 8 (a fourth argument was cut off at the top), then it scrolls.
                rows={Math.min(8, Math.max(3, draft.args.split('\n').length))}
                value={draft.args}
                spellCheck={false}
                onChange={(event) => set({ args: event.target.value })}
              />
            )}
          </FieldFrame>
          <FieldFrame name="cwd" label="Working directory" hint="Optional; Taskdesk's own by default.">
            {(wiring) => <input {...wiring} {...text('cwd')} type="text" />}
          </FieldFrame>
          <div ref={(element) => register('env', element)} tabIndex={-1}>
            <EntryList
              label="Environment variables"
              rows={draft.env}
              header={false}
              error={errors.env}
              errorId={`${group}-env-error`}
              onChange={(env) => set({ env })}
            />
          </div>
        </div>
      ) : (
        <div className="transport-fields">
          <FieldFrame name="url" label="URL" required error={errors.url}>
            {(wiring) => (
              <input
                {...wiring}
                {...text('url')}
                type="text"
                placeholder="https://example.com/mcp"
                required
                aria-required="true"
              />
            )}
          </FieldFrame>
          <div ref={(element) => register('headers', element)} tabIndex={-1}>
            <EntryList
              label="Headers"
              rows={draft.headers}
              header
              error={errors.headers}
              errorId={`${group}-headers-error`}
              onChange={(headers) => set({ headers })}
            />
          </div>
        </div>
      )}
      <FieldFrame
        name="protocol"
        label="Protocol"
        hint="Auto asks the server which revision it speaks; pin one for a server that takes the question badly."
      >
        {(wiring) => (
          <select
            {...wiring}
            name="protocol"
            value={draft.protocol}
            onChange={(event) => set({ protocol: event.target.value as ServerDraft['protocol'] })}
          >
            <ChoiceOptions choices={PROTOCOLS} />
          </select>
        )}
      </FieldFrame>
      <FieldFrame name="autoConnect" label={autoConnectLabel} checkbox>
        {(wiring) => (
          <input
            {...wiring}
            type="checkbox"
            name="autoConnect"
            checked={draft.autoConnect}
            onChange={(event) => set({ autoConnect: event.target.checked })}
          />
        )}
      </FieldFrame>
    </>
  );
}
