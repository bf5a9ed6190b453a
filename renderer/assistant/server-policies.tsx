import { useCallback, useEffect, useState } from 'react';
import type { AssistantToolPolicy } from '../../app/contract/assistant.js';
import { useFailure } from '../components/action-error.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * The modes, the one that lets most through last: the arrow keys on the closed list choose (and
 * so save) each mode they pass, and the list does not wrap, so going from Ask me first to Refuse
 * does not pass Run without asking. Worded as a server's sampling policy is (the Servers screen).
 */
const MODES: Array<{ mode: AssistantToolPolicy['mode']; label: string }> = [
  { mode: 'ask', label: 'Ask me first' },
  { mode: 'refuse', label: 'Refuse' },
  { mode: 'auto', label: 'Run without asking' }
];

/**
 * The tool-call policies of the chosen servers (each is the server's, for every conversation):
 * read when the choice changes, and saved at once by `set`.
 */
export function useServerPolicies(serverIds: string[]) {
  const { client } = useDesk();
  const [policies, setPolicies] = useState<Record<string, AssistantToolPolicy>>({});
  const { failure, fail, clear } = useFailure();
  const key = serverIds.join('\n');
  useEffect(() => {
    let live = true;
    void Promise.all(
      serverIds.map(async (id) => [id, await client.call('assistant.getPolicy', { serverId: id })] as const)
    ).then(
      (pairs) => live && setPolicies(Object.fromEntries(pairs)),
      (problem: unknown) =>
        live &&
        fail(
          'Could not read how the chosen servers’ tool calls are handled.',
          problem,
          'Close the settings and open them again.'
        )
    );
    return () => {
      live = false;
    };
  }, [client, key, fail]);
  const set = useCallback(
    async (serverId: string, policy: AssistantToolPolicy) => {
      clear();
      try {
        const saved = await client.call('assistant.setPolicy', { serverId, policy });
        setPolicies((old) => ({ ...old, [serverId]: saved }));
      } catch (problem) {
        fail(
          'The tool-call choice was not saved.',
          problem,
          'It is back to what it was; choose again to try once more.'
        );
      }
    },
    [client, clear, fail]
  );
  return { policies, set, failure, clear };
}

/** How the assistant treats one server's tool calls (ask, run, refuse), and the tools it always allows. */
export function ServerPolicyControl({
  name,
  policy,
  onChange
}: {
  name: string;
  /** Undefined while it loads. */
  policy: AssistantToolPolicy | undefined;
  onChange: (policy: AssistantToolPolicy) => void;
}) {
  return (
    <>
      <select
        aria-label={`Tool calls to ${name}`}
        value={policy?.mode ?? 'ask'}
        disabled={!policy}
        onChange={(e) => policy && onChange({ ...policy, mode: e.target.value as AssistantToolPolicy['mode'] })}
      >
        {MODES.map((m) => (
          <option key={m.mode} value={m.mode}>
            {m.label}
          </option>
        ))}
      </select>
      {policy && policy.alwaysAllow.length > 0 ? (
        <span className="chat-always-allowed small-text">
          Always allowed:{' '}
          {policy.alwaysAllow.map((tool) => (
            <button
              key={tool}
              type="button"
              className="link-button"
              title={`Ask again before ${tool}`}
              onClick={() => onChange({ ...policy, alwaysAllow: policy.alwaysAllow.filter((t) => t !== tool) })}
            >
              {tool} ✕
            </button>
          ))}
        </span>
      ) : null}
    </>
  );
}
