import { useRef, useState } from 'react';
import type { ServerConfigInput } from '../../app/contract/host-api.js';
import { correctingSummary, FormError } from '../components/form-error.js';
import { FieldFrame } from '../forms/field-frame.js';
import { toHostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const EMPTY = { id: '', name: '', command: '', args: '', url: '' };
type Fields = typeof EMPTY;
type FieldName = keyof Fields;

/** The "Add a server" form: a command over stdio, or a Streamable HTTP URL. */
export function AddServerForm() {
  const { client, announce } = useDesk();
  const [values, setValues] = useState<Fields>(EMPTY);
  const [transport, setTransport] = useState<'stdio' | 'http'>('stdio');
  const [autoConnect, setAutoConnect] = useState(true);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const inputs = useRef(new Map<FieldName, HTMLInputElement | HTMLTextAreaElement>());
  const bind = (name: FieldName) => ({
    name,
    value: values[name],
    ref: (element: HTMLInputElement | HTMLTextAreaElement | null) => {
      if (element) inputs.current.set(name, element);
    },
    onChange: (event: { target: { value: string } }) => setValues((old) => ({ ...old, [name]: event.target.value })),
    autoComplete: 'off',
    spellCheck: false
  });

  /** Checks what the user can fix before asking the host; returns the config, or undefined. */
  const collect = (): ServerConfigInput | undefined => {
    const problems: Array<[FieldName, string]> = [];
    const id = values.id.trim();
    if (!id) problems.push(['id', 'Required']);
    else if (!ID_PATTERN.test(id)) problems.push(['id', 'Use up to 64 letters, digits, dots, dashes and underscores']);
    if (!values.name.trim()) problems.push(['name', 'Required']);
    if (transport === 'stdio' && !values.command.trim()) problems.push(['command', 'Required']);
    if (transport === 'http') {
      const url = values.url.trim();
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        parsed = undefined;
      }
      if (!url) problems.push(['url', 'Required']);
      else if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
        problems.push(['url', 'Enter an http:// or https:// URL']);
    }
    setErrors(Object.fromEntries(problems));
    if (problems.length > 0) {
      setFormError(correctingSummary(problems.length));
      inputs.current.get(problems[0]![0])?.focus();
      return undefined;
    }
    return {
      id,
      name: values.name.trim(),
      autoConnect,
      transport:
        transport === 'stdio'
          ? {
              type: 'stdio',
              command: values.command.trim(),
              args: values.args
                .split('\n')
                .map((line) => line.trim())
                .filter(Boolean)
            }
          : { type: 'http', url: values.url.trim() }
    };
  };

  const submit = async () => {
    setFormError(undefined);
    const config = collect();
    if (!config) return;
    setBusy(true);
    try {
      await client.call('servers.add', config);
      announce(`Added ${config.name}.`);
      setValues(EMPTY);
      setTransport('stdio');
      setAutoConnect(true);
      if (config.autoConnect) await client.call('servers.connect', { serverId: config.id });
    } catch (error) {
      setFormError(toHostCallError(error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="add-server"
      noValidate
      aria-labelledby="heading-add-server"
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 id="heading-add-server">Add a server</h3>
      <div className="field-row">
        <FieldFrame
          name="id"
          label="Id"
          required
          hint="Letters, digits, dot, dash and underscore. Tasks are kept per id."
          error={errors.id}
        >
          {(wiring) => <input {...wiring} {...bind('id')} type="text" required aria-required="true" />}
        </FieldFrame>
        <FieldFrame name="name" label="Name" required error={errors.name}>
          {(wiring) => <input {...wiring} {...bind('name')} type="text" required aria-required="true" />}
        </FieldFrame>
      </div>
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
              id={`transport-${value}`}
              type="radio"
              name="transport"
              value={value}
              checked={transport === value}
              onChange={() => setTransport(value)}
            />
            <label htmlFor={`transport-${value}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      <div className="transport-fields" hidden={transport !== 'stdio'}>
        <FieldFrame name="command" label="Command" required error={errors.command}>
          {(wiring) => (
            <input {...wiring} {...bind('command')} type="text" placeholder="npx" required aria-required="true" />
          )}
        </FieldFrame>
        <FieldFrame name="args" label="Arguments" hint="One argument per line." error={errors.args}>
          {(wiring) => <textarea {...wiring} {...bind('args')} rows={3} />}
        </FieldFrame>
      </div>
      <div className="transport-fields" hidden={transport !== 'http'}>
        <FieldFrame name="url" label="URL" required error={errors.url}>
          {(wiring) => (
            <input
              {...wiring}
              {...bind('url')}
              type="text"
              placeholder="https://example.com/mcp"
              required
              aria-required="true"
            />
          )}
        </FieldFrame>
      </div>
      <FieldFrame name="autoConnect" label="Connect now and when Taskdesk starts" checkbox>
        {(wiring) => (
          <input
            {...wiring}
            type="checkbox"
            name="autoConnect"
            checked={autoConnect}
            onChange={(event) => setAutoConnect(event.target.checked)}
          />
        )}
      </FieldFrame>
      <FormError message={formError} />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Add server
        </button>
      </div>
    </form>
  );
}
