import { useEffect, useRef, useState } from 'react';
import type { ProviderSettings, SavedProvider } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { listingAnnouncement } from './model-listing.js';

const NONE_ANSWERED = 'No local server answered on the usual ports.';

/**
 * Detection of local LLM servers on their usual ports, with one-click adding. That none answered
 * is said until the providers change (one added, removed, renamed or moved, here or elsewhere):
 * after that it would read as about the providers now, which a look did not see.
 */
export function LocalDetect({ onAdded }: { onAdded: (saved: SavedProvider) => void }) {
  const { client, announce } = useDesk();
  const providers = useDeskState((state) => state.providers);
  // Which providers there are, not how they fare: a run that changes a provider's health changes nothing here.
  const which = providers.map((provider) => `${provider.id}\n${provider.name}\n${provider.baseURL}`).join('\n\n');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [candidates, setCandidates] = useState<ProviderSettings[]>([]);
  const { failure, fail, clear } = useFailure();
  const seen = useRef(which);
  useEffect(() => {
    if (seen.current === which) return;
    seen.current = which;
    setStatus((said) => (said === NONE_ANSWERED ? '' : said));
  }, [which]);

  const detect = async () => {
    if (busy) return;
    setBusy(true);
    clear();
    setStatus('Looking for local servers…');
    try {
      const found = await client.call('providers.detect', {});
      setCandidates(found);
      setStatus(
        found.length === 0 ? NONE_ANSWERED : `Found ${found.length} local server${found.length === 1 ? '' : 's'}.`
      );
    } catch (error) {
      setCandidates([]);
      setStatus('');
      fail('Could not look for local servers.', error, 'Press Detect local servers to look again.');
    } finally {
      setBusy(false);
    }
  };

  const add = async (candidate: ProviderSettings) => {
    // A provider may already use the usual id (another port, another machine): pick a free one.
    let id = candidate.id;
    for (let n = 2; providers.some((p) => p.id === id); n++) id = `${candidate.id}-${n}`;
    clear();
    try {
      const saved = await client.call('providers.save', { ...candidate, id, mode: 'add' });
      // A server that named no model when detected was asked again by the save: said with it.
      announce(
        `Added ${saved.name}.${saved.modelListing ? ` ${listingAnnouncement(saved.modelListing, saved.name)}` : ''}`
      );
      onAdded(saved);
    } catch (error) {
      fail(`Could not add ${candidate.name}.`, error);
    }
  };

  return (
    <section className="card detect" aria-labelledby="heading-detect">
      <div className="card-header">
        <h3 id="heading-detect">Local servers</h3>
        <button type="button" {...busyProps(busy)} onClick={() => void detect()}>
          Detect local servers
        </button>
      </div>
      <p className="field-hint">
        Looks for Ollama, LM Studio, llama.cpp and vLLM on their usual ports of this computer.
      </p>
      <p className="muted detect-status" role="status">
        {status}
      </p>
      <ActionError failure={failure} onDismiss={clear} />
      <ul className="detected" aria-label="Local servers found">
        {candidates.map((candidate) => {
          const added = providers.find((p) => p.baseURL === candidate.baseURL);
          return (
            <li className="candidate" data-candidate-url={candidate.baseURL} key={candidate.baseURL}>
              <div>
                <strong>{candidate.name}</strong> at <code>{candidate.baseURL}</code>
                <div className="muted small-text">
                  {candidate.models.length === 0
                    ? 'No models listed'
                    : `Models: ${candidate.models.map((m) => m.name).join(', ')}`}
                </div>
              </div>
              {added ? (
                <span className="muted">Added as {added.name}</span>
              ) : (
                <button type="button" className="small primary" onClick={() => void add(candidate)}>
                  Add {candidate.name}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
