import type { HostResult, RequestorTool } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, replaceChildren, shortId, uid } from '../dom.js';
import { INVALID_PARAMS, toHostCallError } from '../host-client.js';
import { textField } from './form-field.js';
import { formErrorElement, setBusy, setFormError } from './inbox-card.js';
import { buildArgumentControls } from './tool-argument-fields.js';
import { toolResultView } from './tool-result-view.js';

type CallOutcome = HostResult<'tools.call'>;

/**
 * The form that calls one tool: inputs from its `inputSchema`, "Run as a task" for tools that
 * may run either way and how long the server should keep the task, then `tools.call`. A plain
 * call's result is shown under the form; a task goes to the tool call list (`onTask`).
 */
export function toolCallForm(
  serverId: string,
  tool: RequestorTool,
  context: AppContext,
  onTask: (outcome: Extract<CallOutcome, { type: 'task' }>) => void,
  options: { modern?: boolean } = {}
): HTMLFormElement {
  const controls = buildArgumentControls(tool.inputSchema);
  const formError = formErrorElement();
  const resultBox = h('div', { class: 'call-result', role: 'status' });
  const asTaskId = uid('as-task');
  const asTask = h('input', { id: asTaskId, type: 'checkbox', checked: true, name: 'asTask' });
  const unavailable = tool.callMode === 'unavailable';
  // A 2026-07-28 server sets its tasks' ttl itself: there is nothing to ask for.
  const mayRunAsTask = !options.modern && (tool.callMode === 'task' || tool.callMode === 'task-or-plain');
  const ttl = textField('Keep the task for (minutes)', {
    name: 'ttlMinutes',
    type: 'number',
    hint: 'How long the server keeps the task and its result. Empty: Taskdesk’s default.'
  });
  ttl.input.setAttribute('min', '1');
  ttl.input.setAttribute('step', '1');
  ttl.wrapper.classList.add('field-narrow');
  /** Whether this call will run as a task, so that the ttl applies. */
  const runsAsTask = (): boolean => mayRunAsTask && (tool.callMode === 'task' || asTask.checked);
  asTask.addEventListener('change', () => {
    ttl.wrapper.hidden = !runsAsTask();
    if (ttl.wrapper.hidden) ttl.setError(undefined);
  });
  const submit = h('button', { type: 'submit', class: 'primary', disabled: unavailable }, 'Call tool');
  const form = h(
    'form',
    { class: 'answer-form tool-call-form', novalidate: true, 'aria-label': `Call ${tool.name}` },
    controls.length > 0
      ? controls.map((control) => control.element)
      : h('p', { class: 'muted' }, 'This tool takes no arguments.'),
    tool.callMode === 'task-or-plain'
      ? h('div', { class: 'checkbox-row field' }, asTask, h('label', { for: asTaskId }, 'Run as a task'))
      : null,
    mayRunAsTask ? ttl.wrapper : null,
    unavailable
      ? h('p', { class: 'reason' }, 'This tool must run as a task, but the server does not accept task calls.')
      : null,
    formError,
    h('div', { class: 'actions' }, submit),
    resultBox
  );

  /** Puts the host’s per-argument problems on their fields; returns the ones no field takes. */
  const placeProblems = (data: unknown): string[] => {
    const problems = ((data as { problems?: unknown } | undefined)?.problems ?? []) as Array<{
      path?: unknown;
      message?: unknown;
    }>;
    const unplaced: string[] = [];
    for (const problem of Array.isArray(problems) ? problems : []) {
      const path = typeof problem.path === 'string' ? problem.path : '';
      const message = typeof problem.message === 'string' ? problem.message : 'Invalid';
      // Ajv reports a missing property on the parent: "must have required property 'x'".
      const missing = /required property '([^']+)'/.exec(message)?.[1];
      const name = path
        ? decodeURIComponent(path.split('/')[1] ?? '')
            .replaceAll('~1', '/')
            .replaceAll('~0', '~')
        : missing;
      const control =
        controls.find((c) => c.name === name) ?? (path === '' ? controls.find((c) => c.name === '') : undefined);
      if (control)
        control.setError(
          missing && !path ? 'Required' : `${path.split('/').length > 2 ? `${path.slice(1)}: ` : ''}${message}`
        );
      else unplaced.push(path ? `${path.slice(1)}: ${message}` : message);
    }
    return unplaced;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (unavailable) return;
    setFormError(formError, undefined);
    replaceChildren(resultBox);
    const args: Record<string, unknown> = {};
    let firstBad: (typeof controls)[number] | undefined;
    let bad = 0;
    for (const control of controls) {
      const read = control.read();
      control.setError(read.ok ? undefined : read.message);
      if (!read.ok) {
        bad += 1;
        firstBad ??= control;
      } else if (read.value !== undefined) {
        if (control.name === '') Object.assign(args, read.value);
        else args[control.name] = read.value;
      }
    }
    const ttlMs = runsAsTask() ? (ttl.input.validity.badInput ? false : readTtlMs(ttl.input.value)) : undefined;
    ttl.setError(ttlMs === false ? 'Whole minutes, 1 or more' : undefined);
    if (firstBad || ttlMs === false) {
      const fields = bad + (ttlMs === false ? 1 : 0);
      setFormError(formError, fields === 1 ? 'One field needs correcting.' : `${fields} fields need correcting.`);
      if (firstBad) firstBad.focus();
      else ttl.input.focus();
      return;
    }
    void (async () => {
      setBusy(form, true);
      try {
        const outcome = await context.client.call('tools.call', {
          serverId,
          name: tool.name,
          arguments: args,
          ...(tool.callMode === 'task-or-plain' && { asTask: asTask.checked }),
          ...(ttlMs !== undefined && { ttlMs })
        });
        if (outcome.type === 'task') {
          onTask(outcome);
          replaceChildren(
            resultBox,
            h('p', null, `Started as task ${shortId(outcome.task.taskId)} — follow it under Tool calls.`)
          );
          context.announce(`${tool.name} started as a task.`);
        } else {
          replaceChildren(resultBox, h('p', { class: 'muted small-text' }, 'Result:'), toolResultView(outcome.result));
          context.announce(`${tool.name} answered.`);
        }
      } catch (thrown) {
        const error = toHostCallError(thrown);
        const unplaced = error.code === INVALID_PARAMS ? placeProblems(error.data) : [];
        const placed =
          error.code === INVALID_PARAMS &&
          controls.some((control) => control.element.querySelector('[aria-invalid="true"]'));
        setFormError(
          formError,
          placed
            ? `The server’s schema refuses these arguments.${unplaced.length > 0 ? ` ${unplaced.join('; ')}` : ''}`
            : error.message
        );
        if (placed) controls.find((control) => control.element.querySelector('[aria-invalid="true"]'))?.focus();
      } finally {
        setBusy(form, false);
      }
    })();
  });
  return form;
}

/** The ttl field's minutes as milliseconds: undefined when empty (the host's default), false when not whole minutes of 1 or more. */
function readTtlMs(text: string): number | undefined | false {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d+$/.test(trimmed)) return false;
  const ms = Number(trimmed) * 60_000;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : false;
}
