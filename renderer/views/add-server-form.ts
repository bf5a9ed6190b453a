import type { ServerConfigInput } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, uid } from '../dom.js';
import { textField, type FormField } from './form-field.js';
import { toHostCallError } from '../host-client.js';
import { formErrorElement, setBusy, setFormError } from './inbox-card.js';

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The "Add a server" form: a command over stdio, or a Streamable HTTP URL. */
export function addServerForm(context: AppContext, onAdded: () => void): HTMLElement {
  const id = textField('Id', {
    name: 'id',
    required: true,
    hint: 'Letters, digits, dot, dash and underscore. Tasks are kept per id.'
  });
  const name = textField('Name', { name: 'name', required: true });
  const command = textField('Command', { name: 'command', required: true, placeholder: 'npx' });
  const args = textField('Arguments', { name: 'args', multiline: true, hint: 'One argument per line.' });
  const url = textField('URL', { name: 'url', required: true, placeholder: 'https://example.com/mcp' });
  const connectId = uid('server-connect');
  const connect = h('input', { id: connectId, type: 'checkbox', name: 'autoConnect', checked: true });
  const stdioId = uid('transport-stdio');
  const httpId = uid('transport-http');
  const stdio = h('input', { id: stdioId, type: 'radio', name: 'transport', value: 'stdio', checked: true });
  const http = h('input', { id: httpId, type: 'radio', name: 'transport', value: 'http' });
  const stdioFields = h('div', { class: 'transport-fields' }, command.wrapper, args.wrapper);
  const httpFields = h('div', { class: 'transport-fields', hidden: true }, url.wrapper);
  const formError = formErrorElement();
  const showTransport = () => {
    stdioFields.hidden = !stdio.checked;
    httpFields.hidden = !http.checked;
  };
  stdio.addEventListener('change', showTransport);
  http.addEventListener('change', showTransport);

  const form = h(
    'form',
    { class: 'add-server', novalidate: true, 'aria-labelledby': 'heading-add-server' },
    h('h3', { id: 'heading-add-server' }, 'Add a server'),
    h('div', { class: 'field-row' }, id.wrapper, name.wrapper),
    h(
      'fieldset',
      { class: 'field' },
      h('legend', null, 'Transport'),
      h('div', { class: 'checkbox-row' }, stdio, h('label', { for: stdioId }, 'Local command (stdio)')),
      h('div', { class: 'checkbox-row' }, http, h('label', { for: httpId }, 'Streamable HTTP'))
    ),
    stdioFields,
    httpFields,
    h(
      'div',
      { class: 'checkbox-row field' },
      connect,
      h('label', { for: connectId }, 'Connect now and when Taskdesk starts')
    ),
    formError,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Add server'))
  );

  /** Checks what the user can fix before asking the host; returns the config, or undefined. */
  const collect = (): ServerConfigInput | undefined => {
    const problems: Array<[FormField<HTMLInputElement | HTMLTextAreaElement>, string]> = [];
    const idValue = id.input.value.trim();
    if (!idValue) problems.push([id, 'Required']);
    else if (!ID_PATTERN.test(idValue))
      problems.push([id, 'Use up to 64 letters, digits, dots, dashes and underscores']);
    if (!name.input.value.trim()) problems.push([name, 'Required']);
    if (stdio.checked && !command.input.value.trim()) problems.push([command, 'Required']);
    if (http.checked) {
      const value = url.input.value.trim();
      let parsed: URL | undefined;
      try {
        parsed = new URL(value);
      } catch {
        parsed = undefined;
      }
      if (!value) problems.push([url, 'Required']);
      else if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
        problems.push([url, 'Enter an http:// or https:// URL']);
    }
    for (const field of [id, name, command, args, url]) field.setError(problems.find(([f]) => f === field)?.[1]);
    if (problems.length > 0) {
      setFormError(
        formError,
        problems.length === 1 ? 'One field needs correcting.' : `${problems.length} fields need correcting.`
      );
      problems[0]![0].input.focus();
      return undefined;
    }
    return {
      id: idValue,
      name: name.input.value.trim(),
      autoConnect: connect.checked,
      transport: stdio.checked
        ? {
            type: 'stdio',
            command: command.input.value.trim(),
            args: args.input.value
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean)
          }
        : { type: 'http', url: url.input.value.trim() }
    };
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    setFormError(formError, undefined);
    const config = collect();
    if (!config) return;
    void (async () => {
      setBusy(form, true);
      try {
        await context.client.call('servers.add', config);
        context.announce(`Added ${config.name}.`);
        form.reset();
        showTransport();
        onAdded();
        if (config.autoConnect) await context.client.call('servers.connect', { serverId: config.id });
      } catch (error) {
        setFormError(formError, toHostCallError(error).message);
      } finally {
        setBusy(form, false);
      }
    })();
  });
  return form;
}
