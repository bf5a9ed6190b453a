import { useEffect, useState } from 'react';
import type { AssistantToolPolicy } from '../../app/contract/assistant.js';
import { FormError } from '../components/form-error.js';
import { toHostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';

const MODES: Array<{ mode: AssistantToolPolicy['mode']; label: string }> = [
  { mode: 'ask', label: 'Ask me' },
  { mode: 'auto', label: 'Run without asking' },
  { mode: 'refuse', label: 'Refuse' }
];

/** How the assistant treats each chosen server's tool calls (the policy is the server's, for every conversation). */
export function ServerPolicies({ serverIds }: { serverIds: string[] }) {
  const { client } = useDesk();
  const servers = useDeskState((state) => state.servers);
  const [policies, setPolicies] = useState<Record<string, AssistantToolPolicy>>({});
  const [error, setError] = useState<string | undefined>(undefined);
  const key = serverIds.join('\n');
  useEffect(() => {
    let live = true;
    void Promise.all(
      serverIds.map(async (id) => [id, await client.call('assistant.getPolicy', { serverId: id })] as const)
    ).then(
      (pairs) => live && setPolicies(Object.fromEntries(pairs)),
      (problem: unknown) => live && setError(toHostCallError(problem).message)
    );
    return () => {
      live = false;
    };
  }, [client, key]);
  if (serverIds.length === 0) return null;
  const set = async (serverId: string, policy: AssistantToolPolicy) => {
    setError(undefined);
    try {
      const saved = await client.call('assistant.setPolicy', { serverId, policy });
      setPolicies((old) => ({ ...old, [serverId]: saved }));
    } catch (problem) {
      setError(toHostCallError(problem).message);
    }
  };
  return (
    <fieldset className="chat-policies">
      <legend>Tool calls (for every conversation)</legend>
      {serverIds.map((serverId) => {
        const policy = policies[serverId];
        const name = servers.find((s) => s.id === serverId)?.name ?? serverId;
        return (
          <div key={serverId} className="chat-policy-row">
            <label>
              <span>{name}</span>{' '}
              <select
                aria-label={`Tool calls to ${name}`}
                value={policy?.mode ?? 'ask'}
                disabled={!policy}
                onChange={(e) =>
                  policy && void set(serverId, { ...policy, mode: e.target.value as AssistantToolPolicy['mode'] })
                }
              >
                {MODES.map((m) => (
                  <option key={m.mode} value={m.mode}>
                    {m.label}
                  </option>
                ))}
              </select>
            </label>
            {policy && policy.alwaysAllow.length > 0 ? (
              <span className="small-text">
                {' '}
                Always allowed:{' '}
                {policy.alwaysAllow.map((tool) => (
                  <button
                    key={tool}
                    type="button"
                    className="link-button"
                    title={`Ask again before ${tool}`}
                    onClick={() =>
                      void set(serverId, { ...policy, alwaysAllow: policy.alwaysAllow.filter((t) => t !== tool) })
                    }
                  >
                    {tool} ✕
                  </button>
                ))}
              </span>
            ) : null}
          </div>
        );
      })}
      <FormError message={error} />
    </fieldset>
  );
}
