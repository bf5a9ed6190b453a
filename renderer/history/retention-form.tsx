import { useEffect, useRef, useState } from 'react';
import { ActionError, correctingFailure, useFailure } from '../components/action-error.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk } from '../shell/desk-context.js';

/** The form's fields, in its order: the first one in error takes the focus. */
const FIELDS = ['days', 'maxEntries'] as const;
type RetentionField = (typeof FIELDS)[number];

/** What each field accepts, said under it when a save finds it out of range. */
const RANGES: Record<RetentionField, { min: number; max: number; error: string }> = {
  days: { min: 1, max: 3650, error: 'A whole number from 1 to 3,650' },
  maxEntries: { min: 100, max: 100_000, error: 'A whole number from 100 to 100,000' }
};

/** How long and how much history is kept (`history.getRetention` / `history.setRetention`). */
export function RetentionForm({ active }: { active: boolean }) {
  const { client, announce } = useDesk();
  const [values, setValues] = useState<Record<RetentionField, string>>({ days: '', maxEntries: '' });
  const [errors, setErrors] = useState<Partial<Record<RetentionField, string>>>({});
  const controls = useRef(new Map<RetentionField, HTMLInputElement>());
  const { failure, fail, show, clear } = useFailure();
  /** The values as last saved: "Saved." shows while the fields hold them. */
  const [saved, setSaved] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!active) return;
    void client.call('history.getRetention', {}).then(
      (retention) => setValues({ days: String(retention.days), maxEntries: String(retention.maxEntries) }),
      (error: unknown) => fail('Could not read how long history is kept.', error, 'Open History again to retry.')
    );
  }, [client, active, fail]);

  const save = () => {
    const wanted = { days: Number(values.days), maxEntries: Number(values.maxEntries) };
    // Every field checked at once, each error at its field, as the Desk's other forms do.
    const found: typeof errors = {};
    for (const field of FIELDS) {
      const { min, max, error } = RANGES[field];
      const value = wanted[field];
      const badInput = controls.current.get(field)?.validity.badInput === true;
      if (badInput || values[field].trim() === '' || !Number.isInteger(value) || value < min || value > max)
        found[field] = error;
    }
    setErrors(found);
    const wrong = FIELDS.filter((field) => found[field] !== undefined);
    if (wrong.length > 0) {
      show(correctingFailure(wrong.length));
      controls.current.get(wrong[0]!)?.focus();
      return;
    }
    clear();
    void client.call('history.setRetention', wanted).then(
      (kept) => {
        setSaved(`${kept.days}\n${kept.maxEntries}`);
        announce(`History is kept for ${kept.days} days, at most ${kept.maxEntries} entries.`);
      },
      (error: unknown) => fail('The history settings were not saved.', error)
    );
  };

  const field = (name: RetentionField, label: string) => (
    <FieldFrame name={`retention-${name}`} label={label} error={errors[name]}>
      {(wiring) => (
        <input
          {...wiring}
          ref={(element) => {
            if (element) controls.current.set(name, element);
            else controls.current.delete(name);
          }}
          type="number"
          min={RANGES[name].min}
          max={RANGES[name].max}
          value={values[name]}
          onChange={(event) => {
            const value = event.target.value;
            setValues((old) => ({ ...old, [name]: value }));
          }}
        />
      )}
    </FieldFrame>
  );

  return (
    <form
      className="retention card"
      aria-label="Retention"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <h3>Keep history</h3>
      {field('days', 'Days')}
      {field('maxEntries', 'At most entries')}
      <button type="submit">Save</button>
      {saved === `${values.days}\n${values.maxEntries}` ? <span className="muted retention-saved">Saved.</span> : null}
      <ActionError failure={failure} onDismiss={clear} />
    </form>
  );
}
