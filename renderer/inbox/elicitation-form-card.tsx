import { useCallback, useLayoutEffect, useMemo, useState } from 'react';
import { validateElicitationContent } from '../../app/contract/elicitation-check.js';
import type { InboxItem } from '../../app/contract/host-api.js';
import { ActionError, correctingFailure } from '../components/action-error.js';
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

/** The question's message, or a fallback when the server sent none. */
export function messageOf(item: InboxItem, fallback: string): string {
  return typeof item.request.message === 'string' && item.request.message.trim() ? item.request.message : fallback;
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

  const submit = () => {
    form.setErrors({});
    const read = form.read();
    const content = read.ok ? read.values : {};
    void answering.send({ action: 'accept', content }, done, (error) => {
      const fields = error.fields;
      const count = Object.keys(fields).length;
      if (count === 0) return false;
      const unplaced = Object.entries(fields).filter(([name]) => !form.fields.some((field) => field.name === name));
      form.showErrors(fields);
      const summary = correctingFailure(count, 'answer');
      answering.failure.show(
        unplaced.length > 0
          ? {
              ...summary,
              why: unplaced.map(([name, message]) => (name ? `${name}: ${message}` : message)).join('; ')
            }
          : summary
      );
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
