import { Fragment, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { SchemaField } from '../../app/contract/schema-fields.js';
import { FieldFrame, RequiredMark, describedByOf, useFieldId } from './field-frame.js';
import { hintParts, type HintPart } from './hint-parts.js';
import {
  controlKind,
  defaultHint,
  emptyChoiceLabel,
  inputType,
  newItem,
  optionValue,
  partPath,
  selectChoices,
  typeHint,
  WHOLE_ARGUMENTS,
  type RawObject,
  type RawValue,
  type SchemaFormMode
} from './schema-values.js';

/** Props of {@link SchemaFields}. */
export interface SchemaFieldsProps {
  fields: SchemaField[];
  mode: SchemaFormMode;
  values: Record<string, RawValue>;
  /** Messages by path: a field's name, or a part's (`edits.0.oldText`). */
  errors: Record<string, string>;
  /** A field's new value; `changed` is the path of the part of it that changed. */
  onChange: (name: string, value: RawValue, changed?: string) => void;
  /** Registers each control by path (a list's Add by the list's), to focus it and to ask the browser about bad input. */
  controlRef: (path: string, element: HTMLElement | null) => void;
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
        <FieldControl
          key={field.name}
          field={field}
          mode={props.mode}
          path={field.name}
          raw={props.values[field.name]}
          errors={props.errors}
          onChange={(value, changed) => props.onChange(field.name, value, changed ?? field.name)}
          controlRef={props.controlRef}
        />
      ))}
    </>
  );
}

/** One field's control, or for an object or a list a fieldset of them. */
interface FieldControlProps {
  field: SchemaField;
  mode: SchemaFormMode;
  /** The field's name, or for a part of a field its path: the key of its message and its control. */
  path: string;
  raw: RawValue | undefined;
  errors: Record<string, string>;
  /** The field's new value; `changed` is the path of the part of it that changed, when not the field itself. */
  onChange: (value: RawValue, changed?: string) => void;
  controlRef: SchemaFieldsProps['controlRef'];
  /** A list entry's label ("paths 2") and its Remove button. */
  entry?: { label: string; remove: ReactNode };
  /**
   * The label of the nearest optional group this field is in: the group is left out when left
   * empty, so a required field in it is required only once the group is filled in.
   */
  optionalGroup?: string;
}

/** What a JSON box holds, when it is empty: the shape of what to write. */
function jsonPlaceholder(field: SchemaField): string | undefined {
  if (field.type === 'object') return '{"key": "value"}';
  if (field.type === 'array') return '["value"]';
  return undefined;
}

function FieldControl(props: FieldControlProps) {
  const { field, mode, path, raw, errors, onChange, controlRef, entry } = props;
  const kind = controlKind(field, mode);
  const error = errors[path];
  const label = entry?.label ?? field.label;
  // An entry is there to be filled: its place in the list says so, not a star.
  const required = field.required && !entry;
  const tag = entry ? undefined : typeHint(field, mode);
  // The star stays (the field is asked for once its group is): the hint says when.
  const condition =
    required && props.optionalGroup !== undefined && mode === 'arguments'
      ? `Required if you fill in ${props.optionalGroup}.`
      : undefined;
  // A date input reads its description again on each of its parts (month, day, year, picker):
  // its type is said once, in its name, instead.
  const tagInName = tag !== undefined && kind === 'input' && inputType(field, mode) === 'date';
  // The server's own default, while the control does not show it (an empty one leaves the argument
  // out, for the server to apply it). An entry's default is its list's.
  const byDefault = entry ? undefined : defaultHint(field, mode, raw);
  // A date's type is in its label, not in its hint (see `tagInName`).
  const parts = hintParts({ description: field.description, type: tagInName ? undefined : tag, condition, byDefault });
  const hint =
    mode === 'arguments' ? (
      parts.length > 0 ? (
        <ArgumentHint parts={parts} />
      ) : undefined
    ) : (
      field.description || undefined
    );
  const ref = (element: HTMLElement | null) => controlRef(path, element);
  // Elicitation marks required fields for the browser too; its validation stays off (`noValidate`).
  // In an optional group the hint says when it is required: "required" read as well would say it twice.
  const requiredAttrs =
    mode === 'elicitation'
      ? { required: field.required, 'aria-required': field.required || undefined }
      : { 'aria-required': (field.required && !condition) || undefined };
  // A list entry's control and its Remove on one row.
  const withRemove = (control: ReactNode) =>
    entry ? (
      <div className="list-entry-row">
        {control}
        {entry.remove}
      </div>
    ) : (
      control
    );

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
      return (
        <MultiChoice
          field={field}
          path={path}
          hint={hint}
          raw={raw}
          error={error}
          onChange={onChange}
          controlRef={controlRef}
        />
      );
    case 'object':
      return <ObjectFieldset {...props} label={label} required={required} hint={hint} />;
    case 'list':
    case 'map':
      return <ListFieldset {...props} label={label} required={required} hint={hint} />;
    case 'checkbox':
      return withRemove(
        <FieldFrame name={path} label={label} hint={hint} error={error} checkbox>
          {(wiring) => (
            <input
              {...wiring}
              ref={ref}
              name={path}
              type="checkbox"
              checked={raw === true}
              onChange={(event) => onChange(event.target.checked)}
            />
          )}
        </FieldFrame>
      );
    case 'select':
      return (
        <FieldFrame name={path} label={label} hint={hint} required={required} error={error}>
          {(wiring) => (
            <select
              {...wiring}
              {...requiredAttrs}
              ref={ref}
              name={path}
              value={typeof raw === 'string' ? raw : ''}
              onChange={(event) => onChange(event.target.value)}
            >
              <option value="">{emptyChoiceLabel(field, mode)}</option>
              {selectChoices(field, mode).map((choice, index) => (
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
        <FieldFrame name={path || 'json'} label={label} hint={hint} required={required} error={error}>
          {(wiring) => (
            <textarea
              {...wiring}
              {...requiredAttrs}
              ref={ref}
              name={path || 'arguments'}
              rows={whole ? 6 : 3}
              className="json"
              placeholder={whole ? undefined : jsonPlaceholder(field)}
              spellCheck={false}
              value={typeof raw === 'string' ? raw : ''}
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </FieldFrame>
      );
    }
    case 'input': {
      const numeric = field.kind === 'number' || field.kind === 'integer';
      const type = inputType(field, mode);
      return (
        <FieldFrame
          name={path}
          label={
            tagInName ? (
              <>
                {label} <span className="type-tag">({tag})</span>
              </>
            ) : (
              label
            )
          }
          hint={hint}
          required={required}
          error={error}
        >
          {(wiring) =>
            withRemove(
              <input
                {...wiring}
                {...requiredAttrs}
                ref={ref}
                name={path}
                type={type}
                autoComplete={type === 'email' && mode === 'elicitation' ? 'email' : 'off'}
                spellCheck={mode === 'arguments' ? false : undefined}
                step={numeric ? (field.kind === 'integer' ? '1' : 'any') : undefined}
                min={field.minimum}
                max={field.maximum}
                value={typeof raw === 'string' ? raw : ''}
                onChange={(event) => onChange(event.target.value)}
              />
            )
          }
        </FieldFrame>
      );
    }
  }
}

/**
 * A tool argument's hint: the description, its type in brackets on the same line, then the
 * condition and the default on lines of their own. What is seen is what is read, once.
 */
function ArgumentHint({ parts }: { parts: HintPart[] }) {
  return (
    <>
      {parts.map(({ kind, text, joiner, line }) =>
        line ? (
          <span key={kind} className={kind === 'default' ? 'field-default' : 'field-condition'}>
            {/* A space the page's text keeps (copied, or read as text): on screen the line break stands for it. */}
            {joiner ? <span className="sr-only">{joiner}</span> : null}
            {text}
          </span>
        ) : (
          <Fragment key={kind}>
            {joiner}
            <span className={kind === 'type' ? 'type-tag' : undefined}>{text}</span>
          </Fragment>
        )
      )}
    </>
  );
}

/** A fieldset with its legend, hint and error, wired as {@link FieldFrame} wires a control. */
function GroupFrame({
  id: givenId,
  path,
  label,
  required,
  hint,
  error,
  className,
  children
}: {
  /** The id its hint's and error's ids are made from, when its controls' ids are made from it too. */
  id?: string;
  path: string;
  label: string;
  required: boolean;
  hint: ReactNode;
  error: string | undefined;
  className?: string;
  children: ReactNode;
}) {
  const ownId = useFieldId(path);
  const id = givenId ?? ownId;
  const describedBy = describedByOf(id, hint, error);
  return (
    <fieldset
      className={`field${className ? ` ${className}` : ''}`}
      aria-describedby={describedBy}
      aria-invalid={error ? true : undefined}
    >
      <legend>
        {label}
        <RequiredMark required={required} />
      </legend>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      <p className="field-error" id={`${id}-error`} hidden={!error}>
        {error ?? ''}
      </p>
    </fieldset>
  );
}

/** What a group gets besides its field's props: its label, whether to mark it required, its hint. */
interface GroupProps {
  label: string;
  required: boolean;
  hint: ReactNode;
}

function asObject(raw: RawValue | undefined): RawObject {
  return typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
}

/** An object with properties: its fields in a fieldset (with its Remove, when it is a list entry). */
function ObjectFieldset(props: FieldControlProps & GroupProps) {
  const { field, mode, path, raw, errors, onChange, controlRef, entry } = props;
  const values = asObject(raw);
  return (
    <GroupFrame
      path={path}
      label={props.label}
      required={props.required}
      hint={props.hint}
      error={errors[path]}
      className="field-group"
    >
      {(field.fields ?? []).map((child) => {
        const childPath = partPath(path, child.name);
        return (
          <FieldControl
            key={child.name}
            field={child}
            mode={mode}
            path={childPath}
            raw={values[child.name]}
            errors={errors}
            onChange={(value, changed) => onChange({ ...values, [child.name]: value }, changed ?? childPath)}
            controlRef={controlRef}
            // An optional object is left out while empty: its required fields are asked for once it is filled in.
            optionalGroup={field.required ? props.optionalGroup : props.label}
          />
        );
      })}
      {entry?.remove}
    </GroupFrame>
  );
}

/**
 * An array of strings, numbers, booleans or objects: an entry each, with Remove, and Add. A map
 * of strings is the same list, its entries a name and a value each.
 */
function ListFieldset(props: FieldControlProps & GroupProps) {
  const { field, mode, path, raw, errors, onChange, controlRef } = props;
  const entries = Array.isArray(raw) ? raw : [];
  const noun = field.kind === 'map' ? 'entry' : 'item';
  const listRef = useRef<HTMLOListElement>(null);
  const addRef = useRef<HTMLButtonElement | null>(null);
  // After Add, the new entry's first control; after Remove, the entry now in its place (or the
  // one before, or Add when none is left): focus stays in the list, where the person is working.
  const focusAfter = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const index = focusAfter.current;
    if (index === undefined) return;
    focusAfter.current = undefined;
    const target =
      listRef.current?.children[index]?.querySelector<HTMLElement>('input, select, textarea, button') ?? addRef.current;
    target?.focus();
  });
  const change = (next: RawValue[], focus: number) => {
    focusAfter.current = focus;
    onChange(next, path);
  };
  return (
    <GroupFrame
      path={path}
      label={props.label}
      required={props.required}
      hint={props.hint}
      error={errors[path]}
      className="field-group"
    >
      {entries.length > 0 ? (
        <ol className="form-entries" ref={listRef}>
          {entries.map((value, index) => {
            const entryPath = partPath(path, index);
            return (
              // Entries have no identity of their own but their place, which their labels say too.
              <li key={index}>
                <FieldControl
                  field={field.item!}
                  mode={mode}
                  path={entryPath}
                  raw={value}
                  errors={errors}
                  onChange={(entry, changed) =>
                    onChange(
                      entries.map((old, at) => (at === index ? entry : old)),
                      changed ?? entryPath
                    )
                  }
                  controlRef={controlRef}
                  entry={{
                    label: `${props.label} ${index + 1}`,
                    remove: (
                      <button
                        type="button"
                        className="entry-remove"
                        onClick={() =>
                          change(
                            entries.filter((_, at) => at !== index),
                            Math.min(index, entries.length - 2)
                          )
                        }
                      >
                        Remove<span className="sr-only">{` ${noun} ${index + 1} of ${props.label}`}</span>
                      </button>
                    )
                  }}
                />
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted small-text">{field.kind === 'map' ? 'No entries.' : 'No items.'}</p>
      )}
      <button
        type="button"
        ref={(element) => {
          addRef.current = element;
          controlRef(path, element);
        }}
        onClick={() => change([...entries, newItem(field, mode)], entries.length)}
      >
        Add {noun}
        <span className="sr-only">{` to ${props.label}`}</span>
      </button>
    </GroupFrame>
  );
}

/** An array of listed values: a fieldset of checkboxes. */
function MultiChoice({
  field,
  path,
  hint,
  raw,
  error,
  onChange,
  controlRef
}: {
  field: SchemaField;
  path: string;
  hint: ReactNode;
  raw: RawValue | undefined;
  error: string | undefined;
  onChange: FieldControlProps['onChange'];
  controlRef: SchemaFieldsProps['controlRef'];
}) {
  const id = useFieldId(path);
  const chosen = Array.isArray(raw) ? raw : [];
  return (
    <GroupFrame id={id} path={path} label={field.label} required={field.required} hint={hint} error={error}>
      {field.choices.map((choice, index) => (
        <div className="checkbox-row" key={index}>
          <input
            id={`${id}-${index}`}
            ref={index === 0 ? (element) => controlRef(path, element) : undefined}
            type="checkbox"
            name={path}
            value={String(index)}
            checked={chosen.includes(String(index))}
            onChange={(event) =>
              onChange(
                event.target.checked ? [...chosen, String(index)] : chosen.filter((value) => value !== String(index))
              )
            }
          />
          <label htmlFor={`${id}-${index}`}>{choice.label}</label>
        </div>
      ))}
    </GroupFrame>
  );
}
