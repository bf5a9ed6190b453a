import { useEffect, useState } from 'react';
import { toHostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';

/** How long and how much history is kept (`history.getRetention` / `history.setRetention`). */
export function RetentionForm({ active }: { active: boolean }) {
  const { client, announce } = useDesk();
  const [days, setDays] = useState('');
  const [maxEntries, setMaxEntries] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  /** The values as last saved: "Saved." shows while the fields hold them. */
  const [saved, setSaved] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!active) return;
    void client.call('history.getRetention', {}).then(
      (retention) => {
        setDays(String(retention.days));
        setMaxEntries(String(retention.maxEntries));
      },
      (error: unknown) => setProblem(toHostCallError(error).message)
    );
  }, [client, active]);

  const save = () => {
    const wanted = { days: Number(days), maxEntries: Number(maxEntries) };
    if (!Number.isInteger(wanted.days) || wanted.days < 1 || wanted.days > 3650)
      return setProblem('Keep entries for 1 to 3650 days.');
    if (!Number.isInteger(wanted.maxEntries) || wanted.maxEntries < 100 || wanted.maxEntries > 100_000)
      return setProblem('Keep 100 to 100,000 entries.');
    setProblem(undefined);
    void client.call('history.setRetention', wanted).then(
      (kept) => {
        setSaved(`${kept.days}\n${kept.maxEntries}`);
        announce(`History is kept for ${kept.days} days, at most ${kept.maxEntries} entries.`);
      },
      (error: unknown) => setProblem(toHostCallError(error).message)
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
      {problem ? (
        <p role="alert" className="form-error">
          {problem}
        </p>
      ) : null}
      <button type="submit">Save</button>
      {saved === `${days}\n${maxEntries}` ? <span className="muted retention-saved">Saved.</span> : null}
    </form>
  );
}
