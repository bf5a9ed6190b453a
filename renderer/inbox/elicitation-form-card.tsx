import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { validateElicitationContent } from '../../app/contract/elicitation-check.js';
import type { InboxItem } from '../../app/contract/host-api.js';
import type { SchemaField } from '../../app/contract/schema-fields.js';
import { ActionError, correctingFailure, type Failure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { SchemaFields } from '../forms/schema-fields.js';
import { useSchemaForm } from '../forms/use-schema-form.js';
import { InboxCard } from './inbox-card.js';
import { inboxKindWords } from '../components/kind-words.js';
import { useAnswer } from './use-answer.js';
import { DeclineCancelButtons } from './decline-cancel-buttons.js';
import { useHostDraft, useKeptDraft, useStartDraft, useWrittenText } from './kept-draft.js';
import { controlKind, initialValues } from '../forms/schema-values.js';
import { restoredFormValues } from './restored-draft.js';
import { answerSentText } from './answer-sent-words.js';
import { useCorrecting } from '../servers/use-correcting.js';
import { MARKED_BY_THE_FORM } from '../forms/use-form-correcting.js';

/** The question's message, or a fallback when the server sent none. */
export function messageOf(item: InboxItem, fallback: string): string {
  return typeof item.request.message === 'string' && item.request.message.trim() ? item.request.message : fallback;
}

/**
 * The host's messages by name, split: those on a field of the form (marked there), and the words
 * of those no field holds (a name the form has no field for, or '' for the whole). Only the first
 * are counted as to correct: nothing but the next Submit takes the others away.
 */
function placeOnFields(
  messages: Record<string, string>,
  fields: readonly SchemaField[]
): { errors: Record<string, string>; unplaced: string[] } {
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const [name, message] of Object.entries(messages)) {
    if (fields.some((field) => field.name === name)) errors[name] = message;
    else unplaced.push(name ? `${name}: ${message}` : message);
  }
  return { errors, unplaced };
}

/**
 * The answers to correct, in a summary: how many are marked, and the host's messages that no
 * field holds (they are marked nowhere else, and are not counted: nothing corrects them but the
 * next Submit, so the summary goes once every marked answer is corrected).
 */
function answersToCorrect(count: number, unplaced: readonly string[]): Failure {
  const summary = correctingFailure(count, 'answer');
  return unplaced.length === 0 ? summary : { ...summary, why: unplaced.join('; ') };
}

/**
 * An elicitation in form mode: inputs from `requestedSchema`; the host checks the answer and
 * its per-field messages go on their fields.
 */
export function ElicitationFormCard({ item }: { item: InboxItem }) {
  const schema = item.request.requestedSchema;
  const check = useCallback((values: Record<string, unknown>) => validateElicitationContent(schema, values), [schema]);
  const form = useSchemaForm(schema, 'elicitation', check);
  const answering = useAnswer(item);
  // What was chosen (a select, a checkbox) is kept as what was typed is: a withdrawn card's notice holds both.
  useKeptDraft(item, useWrittenText(form.fields, form.values));
  // What was typed before (in another card of the item, or before Taskdesk restarted), when it still fits the form.
  const kept = useStartDraft(item);
  const [restored] = useState(() => restoredFormValues(form.fields, kept) ?? null);
  const { reset } = form;
  useLayoutEffect(() => {
    if (restored) reset(restored);
  }, [restored, reset]);
  const starting = useMemo(() => initialValues(form.fields, 'elicitation'), [form.fields]);
  const initial = useMemo(() => JSON.stringify(starting), [starting]);
  useHostDraft(item, kept, JSON.stringify(form.values) === initial ? null : form.values, restored);
  // Whether anything in the form was changed by hand, even if set back since. (React's onChange,
  // not onInput: a render between a select's input and change events would set it back.)
  const [touched, setTouched] = useState(false);
  // A form as it came, nothing changed, with a field to type in that starts empty (no default: a
  // default fills its field from the start): the Inbox's a takes the person to the first such
  // field rather than sending the form as it is (they were about to type their answer; see
  // `UNTOUCHED_FORM` in inbox-keys.tsx).
  const toType = form.fields.find(
    (field) => controlKind(field, 'elicitation') === 'input' && starting[field.name] === ''
  );
  const untouched = !touched && toType !== undefined && JSON.stringify(form.values) === initial;
  const done = answerSentText(item);
  // After an answer refused for its answers, the summary follows the marks as they are corrected
  // (the form checks each field as it changes), as the Servers forms' does: its count, and gone
  // once none is marked. It words its count in fields: a question's summary says answers, and
  // keeps the host's messages that no field holds, said but not counted (as the tool-call form's
  // does): only the next Submit can take them away.
  const { show, clear } = answering.failure;
  const { errors, fields } = form;
  const unplaced = useRef<string[]>([]);
  const showMarked = useCallback(
    (failure: Failure | undefined) => show(failure && answersToCorrect(Object.keys(errors).length, unplaced.current)),
    [show, errors]
  );
  const correcting = useCorrecting(Object.entries(errors), MARKED_BY_THE_FORM, { show: showMarked, clear });

  const submit = () => {
    correcting.done();
    form.setErrors({});
    const read = form.read();
    const content = read.ok ? read.values : {};
    void answering.send({ action: 'accept', content }, done, (error) => {
      const placed = placeOnFields(error.fields, fields);
      const count = Object.keys(placed.errors).length;
      // No field to mark: the refusal is said as it came.
      if (count === 0) return false;
      unplaced.current = placed.unplaced;
      form.showErrors(placed.errors);
      show(answersToCorrect(count, placed.unplaced));
      correcting.found(count);
      return true;
    });
  };

  return (
    <InboxCard
      item={item}
      kindLabel={inboxKindWords(item)}
      markdown
      title={messageOf(item, `${item.serverName} asks for information`)}
    >
      <form
        className="answer-form"
        noValidate
        aria-busy={answering.busy}
        data-untouched={untouched ? toType.name : undefined}
        onChange={() => setTouched(true)}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {form.fields.length > 0 ? (
          <SchemaFields
            fields={form.fields}
            mode="elicitation"
            values={form.values}
            errors={form.errors}
            onChange={form.setValue}
            controlRef={form.controlRef}
          />
        ) : (
          <p className="muted">This form has no fields.</p>
        )}
        <ActionError failure={answering.failure.failure} onDismiss={answering.failure.clear} />
        <div className="actions">
          <button type="submit" className="primary" {...busyProps(answering.busy)}>
            Submit
          </button>
          <DeclineCancelButtons answering={answering} done={done} />
        </div>
      </form>
    </InboxCard>
  );
}
