import type { HistorySummary } from '../../app/contract/history.js';
import type { InboundTask } from '../../app/contract/host-api.js';

/**
 * A sampling request Server a sent, as the Desk holds it: its received task and its History
 * entry, both asked (and, for the entry, ended) at `asked`.
 */
export const asked = '2026-12-01T09:00:00.000Z';

/** The task Taskdesk received for the request, in `status`. */
export function receivedTask(status: InboundTask['task']['status'] = 'working', taskId = 't1'): InboundTask {
  return {
    task: { taskId, status, createdAt: asked, lastUpdatedAt: asked, ttl: 60_000 },
    serverId: 'a',
    serverName: 'Server a',
    kind: 'sampling',
    request: {},
    notes: []
  };
}

/** The request's History entry: completed, unless `extra` says otherwise. */
export function receivedEntry(extra: Partial<HistorySummary> = {}): HistorySummary {
  return {
    id: 'request:1',
    direction: 'received',
    kind: 'sampling',
    serverId: 'a',
    serverName: 'Server a',
    title: 'Say hi',
    status: 'completed',
    createdAt: asked,
    updatedAt: asked,
    endedAt: asked,
    ...extra
  };
}

/** A model request as a server sends it (`asked`), and as the person changed it on the approval card (`ran`). */
export const editedRequest = (() => {
  const asked = {
    messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku about queues' } }],
    maxTokens: 50
  };
  const ran = {
    ...asked,
    messages: [{ role: 'user', content: { type: 'text', text: 'EDITED: a limerick about queues' } }]
  };
  return { asked, ran };
})();
