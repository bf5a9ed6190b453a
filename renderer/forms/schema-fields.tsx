import type { SchemaField } from '../../app/contract/schema-fields.js';
import { FieldFrame, useFieldId } from './field-frame.js';
import {
  controlKind,
  inputType,
  optionValue,
  selectChoices,
  WHOLE_ARGUMENTS,
  type RawValue,
  type SchemaFormMode
} from './schema-values.js';

/** Props of {@link SchemaFields}. */
export interface SchemaFieldsProps {
  fields: SchemaField[];
  mode: SchemaFormMode;
  values: Record<string, RawValue>;
  errors: Record<string, string>;
  onChange: (name: string, value: RawValue) => void;
  /** Registers each field's first control, to focus it and to ask the browser about bad input. */
  controlRef: (name: string, element: HTMLElement | null) => void;
}

/**
 * The inputs of a form built from a JSON Schema: one component for elicitation forms and tool
 * argument forms alike. Values are controlled by the form that owns them, so what is typed
 * survives anything else on the page changing.
 */
export function SchemaFields(props: SchemaFieldsProps) {
  return (
    <>
      {props.fields.map((field) => (
        <SchemaFieldControl key={field.name} field={field} {...props} />
      ))}
    </>
  );
}

function typeTag(field: SchemaField, mode: SchemaFormMode): string | undefined {
  if (mode !== 'arguments' || field.name === WHOLE_ARGUMENTS) return undefined;
  const kind = controlKind(field, mode);
  if (kind === 'json') return `${field.type ?? 'any'}, as JSON`;
  if (kind === 'checkbox') return undefined;
  return field.format ? `${field.type}, ${field.format}` : field.type;
}

function SchemaFieldControl({
  field,
  mode,
  values,
  errors,
  onChange,
  controlRef
}: SchemaFieldsProps & { field: SchemaField }) {
  const kind = controlKind(field, mode);
  const raw = values[field.name];
  const error = errors[field.name];
  const tag = typeTag(field, mode);
  const hint =
    field.description || tag ? (
      mode === 'arguments' ? (
        <>
          {field.description ? <span>{field.description}</span> : null}
          {/* On screen the tag stands apart by its margin and font alone: read out, it would run on from the description. */}
          {tag ? (
            <>
              <span className="type-tag" aria-hidden="true">
                {tag}
              </span>
              {/* Its own space: a screen reader joins inline text as it stands ("Message to echo(string)"). */}
              <span className="sr-only">{` (${tag})`}</span>
            </>
          ) : null}
        </>
      ) : (
        field.description
      )
    ) : undefined;
  const ref = (element: HTMLElement | null) => controlRef(field.name, element);
  // Elicitation marks required fields for the browser too; its validation stays off (`noValidate`).
  const requiredAttrs =
    mode === 'elicitation'
      ? { required: field.required, 'aria-required': field.required || undefined }
      : { 'aria-required': field.required || undefined };

  switch (kind) {
    case 'unsupported':
      return (
        <div className="field">
          <p>
            {field.label}: this kind of field ({JSON.stringify(field.type)}) cannot be filled in here.
          </p>
          {error ? <p className="field-error">{error}</p> : null}
        </div>
      );
    case 'checkboxes':
      return <MultiChoice field={field} raw={raw} error={error} onChange={onChange} controlRef={controlRef} />;
    case 'checkbox':
      return (
        <FieldFrame name={field.name} label={field.label} hint={hint} error={error} checkbox>
          {(wiring) => (
            <input
              {...wiring}
              ref={ref}
              name={field.name}
              type="checkbox"
              checked={raw === true}
              onChange={(event) => onChange(field.name, event.target.checked)}
            />
          )}
        </FieldFrame>
      );
    case 'select':
      return (
        <FieldFrame name={field.name} label={field.label} hint={hint} required={field.required} error={error}>
          {(wiring) => (
            <select
              {...wiring}
              {...requiredAttrs}
              ref={ref}
              name={field.name}
              value={typeof raw === 'string' ? raw : ''}
              onChange={(event) => onChange(field.name, event.target.value)}
            >
              <option value="">{field.required ? 'Choose…' : mode === 'elicitation' ? '(none)' : '(not set)'}</option>
              {selectChoices(field).map((choice, index) => (
                <option key={index} value={optionValue(choice, index, mode)}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </FieldFrame>
      );
    case 'json': {
      const whole = field.name === WHOLE_ARGUMENTS;
      return (
        <FieldFrame name={field.name || 'json'} label={field.label} hint={hint} required={field.required} error={error}>
          {(wiring) => (
            <textarea
              {...wiring}
              {...requiredAttrs}
              ref={ref}
              name={field.name || 'arguments'}
              rows={whole ? 6 : 3}
              className="json"
              spellCheck={false}
              value={typeof raw === 'string' ? raw : ''}
              onChange={(event) => onChange(field.name, event.target.value)}
            />
          )}
        </FieldFrame>
      );
    }
    case 'input': {
      const numeric = field.kind === 'number' || field.kind === 'integer';
      const type = inputType(field, mode);
      return (
        <FieldFrame name={field.name} label={field.label} hint={hint} required={field.required} error={error}>
          {(wiring) => (
            <input
              {...wiring}
              {...requiredAttrs}
              ref={ref}
              name={field.name}
              type={type}
              autoComplete={type === 'email' && mode === 'elicitation' ? 'email' : 'off'}
              spellCheck={mode === 'arguments' ? false : undefined}
              step={numeric ? (field.kind === 'integer' ? '1' : 'any') : undefined}
              min={field.minimum}
              max={field.maximum}
              value={typeof raw === 'string' ? raw : ''}
              onChange={(event) => onChange(field.name, event.target.value)}
            />
          )}
        </FieldFrame>
      );
    }
  }
}

/** An array of listed values: a fieldset of checkboxes. */
function MultiChoice({
  field,
  raw,
  error,
  onChange,
  controlRef
}: {
  field: SchemaField;
  raw: RawValue | undefined;
  error: string | undefined;
  onChange: SchemaFieldsProps['onChange'];
  controlRef: SchemaFieldsProps['controlRef'];
}) {
  const id = useFieldId(field.name);
  const chosen = Array.isArray(raw) ? raw : [];
  const describedBy =
    [field.description ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="field" aria-describedby={describedBy} aria-invalid={error ? true : undefined}>
      <legend>
        {field.label}
        {field.required ? (
          <span className="required" aria-hidden="true">
            {' *'}
          </span>
        ) : null}
      </legend>
      {field.description ? (
        <p className="field-hint" id={`${id}-hint`}>
          {field.description}
        </p>
      ) : null}
      {field.choices.map((choice, index) => (
        <div className="checkbox-row" key={index}>
          <input
            id={`${id}-${index}`}
            ref={index === 0 ? (element) => controlRef(field.name, element) : undefined}
            type="checkbox"
            name={field.name}
            value={String(index)}
            checked={chosen.includes(String(index))}
            onChange={(event) =>
              onChange(
                field.name,
                event.target.checked ? [...chosen, String(index)] : chosen.filter((value) => value !== String(index))
              )
            }
          />
          <label htmlFor={`${id}-${index}`}>{choice.label}</label>
        </div>
      ))}
      <p className="field-error" id={`${id}-error`} hidden={!error}>
        {error ?? ''}
      </p>
    </fieldset>
  );
}
