import assert from 'node:assert/strict';
import type { OutboundTaskView } from '../../app/contract/outbound-tasks.js';
import type { Host } from '../../app/host/host.js';
import { nextEvent } from './host-fixture.js';

/** What the requestor tests against a 2026-07-28 server (stdio, Streamable HTTP) share. */

export const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const TASKS = 'io.modelcontextprotocol/tasks';

/**
 * Tool calls on one server that become tasks, and waiting for their outcome. `host` is read
 * at each call (suites create it in `before`).
 */
export function modernTaskCalls(host: () => Host, serverId: string) {
  async function startTask(name: string, args: Record<string, unknown> = {}): Promise<OutboundTaskView> {
    const outcome = await host().call('tools.call', { serverId, name, arguments: args });
    assert.equal(outcome.type, 'task', `${name} became a task`);
    return outcome.type === 'task' ? outcome.task : assert.fail('not a task');
  }

  function settled(outboundId: string): Promise<OutboundTaskView> {
    const now = host().requestor.get(outboundId);
    if (now?.outcome !== undefined) return Promise.resolve(now);
    return nextEvent(
      host(),
      'outbound.changed',
      (e) => e.type === 'changed' && e.task.outboundId === outboundId && e.task.outcome !== undefined
    ).then((e) => (e.type === 'changed' ? e.task : assert.fail('removed')));
  }

  return { startTask, settled };
}
