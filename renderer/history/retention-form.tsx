import { useEffect, useState } from 'react';
import { ActionError, useFailure } from '../components/action-error.js';
import { useDesk } from '../shell/desk-context.js';

/** How long and how much history is kept (`history.getRetention` / `history.setRetention`). */
export function RetentionForm({ active }: { active: boolean }) {
  const { client, announce } = useDesk();
  const [days, setDays] = useState('');
  const [maxEntries, setMaxEntries] = useState('');
  const { failure, fail, show, clear } = useFailure();
  /** The values as last saved: "Saved." shows while the fields hold them. */
  const [saved, setSaved] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!active) return;
    void client.call('history.getRetention', {}).then(
      (retention) => {
        setDays(String(retention.days));
        setMaxEntries(String(retention.maxEntries));
      },
      (error: unknown) => fail('Could not read how long history is kept.', error, 'Open History again to retry.')
    );
  }, [client, active, fail]);

  const save = () => {
    const wanted = { days: Number(days), maxEntries: Number(maxEntries) };
    if (!Number.isInteger(wanted.days) || wanted.days < 1 || wanted.days > 3650)
      return show({ what: 'Days must be a whole number from 1 to 3650.', next: 'Correct it, then press Save.' });
    if (!Number.isInteger(wanted.maxEntries) || wanted.maxEntries < 100 || wanted.maxEntries > 100_000)
      return show({
        what: 'At most entries must be a whole number from 100 to 100,000.',
        next: 'Correct it, then press Save.'
      });
    clear();
    void client.call('history.setRetention', wanted).then(
      (kept) => {
        setSaved(`${kept.days}\n${kept.maxEntries}`);
        announce(`History is kept for ${kept.days} days, at most ${kept.maxEntries} entries.`);
      },
      (error: unknown) => fail('The history settings were not saved.', error)
    );
  };

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
      <label>
        Days
        <input type="number" min={1} max={3650} value={days} onChange={(event) => setDays(event.target.value)} />
      </label>
      <label>
        At most entries
        <input
          type="number"
          min={100}
          max={100000}
          value={maxEntries}
          onChange={(event) => setMaxEntries(event.target.value)}
        />
      </label>
      <ActionError failure={failure} onDismiss={clear} />
      <button type="submit">Save</button>
      {saved === `${days}\n${maxEntries}` ? <span className="muted retention-saved">Saved.</span> : null}
    </form>
  );
}
