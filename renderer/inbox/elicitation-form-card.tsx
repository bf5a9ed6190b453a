import { useCallback, useLayoutEffect, useMemo, useState } from 'react';
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
import { initialValues } from '../forms/schema-values.js';
import { restoredFormValues } from './restored-draft.js';
import { answerSentText } from './answer-sent-words.js';
import { useCorrecting } from '../servers/use-correcting.js';
import { MARKED_BY_THE_FORM } from '../forms/use-form-correcting.js';

/** The question's message, or a fallback when the server sent none. */
export function messageOf(item: InboxItem, fallback: string): string {
  return typeof item.request.message === 'string' && item.request.message.trim() ? item.request.message : fallback;
}

/**
 * The answers to correct, in a summary: how many are marked, and the host's messages about
 * answers the form has no field for (they are marked nowhere else).
 */
function answersToCorrect(errors: Record<string, string>, fields: readonly SchemaField[]): Failure {
  const summary = correctingFailure(Object.keys(errors).length, 'answer');
  const unplaced = Object.entries(errors).filter(([name]) => !fields.some((field) => field.name === name));
  if (unplaced.length === 0) return summary;
  return { ...summary, why: unplaced.map(([name, message]) => (name ? `${name}: ${message}` : message)).join('; ') };
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
  const initial = useMemo(() => JSON.stringify(initialValues(form.fields, 'elicitation')), [form.fields]);
  useHostDraft(item, kept, JSON.stringify(form.values) === initial ? null : form.values, restored);
  const done = answerSentText(item);
  // After an answer refused for its answers, the summary follows the marks as they are corrected
  // (the form checks each field as it changes), as the Servers forms' does: its count, and gone
  // once none is marked. It words its count in fields: a question's summary says answers, and
  // keeps the host's messages that no field holds.
  const { show, clear } = answering.failure;
  const { errors, fields } = form;
  const showMarked = useCallback(
    (failure: Failure | undefined) => show(failure && answersToCorrect(errors, fields)),
    [show, errors, fields]
  );
  const correcting = useCorrecting(Object.entries(errors), MARKED_BY_THE_FORM, { show: showMarked, clear });

  const submit = () => {
    correcting.done();
    form.setErrors({});
    const read = form.read();
    const content = read.ok ? read.values : {};
    void answering.send({ action: 'accept', content }, done, (error) => {
      const count = Object.keys(error.fields).length;
      if (count === 0) return false;
      form.showErrors(error.fields);
      show(answersToCorrect(error.fields, fields));
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
