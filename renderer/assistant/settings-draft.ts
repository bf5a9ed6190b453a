import type { Conversation } from '../../app/contract/assistant.js';

/** A conversation's settings as its settings form edits them (no system prompt is ''). */
export interface SettingsDraft {
  title: string;
  providerId: string;
  model: string;
  systemPrompt: string;
  serverIds: string[];
  /** Per server, the only tools offered (see `ConversationSettingsSchema.toolsOffered`); {} offers all. */
  toolsOffered: Record<string, string[]>;
  maxToolRounds: number;
  imageInput: boolean;
}

/** The conversation's settings as a draft. */
export function fromConversation(c: Conversation): SettingsDraft {
  return {
    title: c.title,
    providerId: c.providerId,
    model: c.model,
    systemPrompt: c.systemPrompt ?? '',
    serverIds: c.serverIds,
    toolsOffered: c.toolsOffered ?? {},
    maxToolRounds: c.maxToolRounds,
    imageInput: c.imageInput
  };
}

/** Whether two drafts would save the same settings (a title or prompt of spaces saves as none). */
export function sameSettings(a: SettingsDraft, b: SettingsDraft): boolean {
  const saved = (d: SettingsDraft) =>
    JSON.stringify({
      ...d,
      title: d.title.trim(),
      systemPrompt: d.systemPrompt.trim(),
      serverIds: [...d.serverIds].sort(),
      toolsOffered: toolsSaved(d)
    });
  return saved(a) === saved(b);
}

/**
 * The tool choice a draft saves: for its servers only (a server unticked offers nothing, and its
 * choice would be a stale one if ticked again later), each list sorted, in the servers' order.
 */
export function toolsSaved(d: Pick<SettingsDraft, 'serverIds' | 'toolsOffered'>): Record<string, string[]> {
  const saved: Record<string, string[]> = {};
  for (const serverId of [...d.serverIds].sort()) {
    const only = d.toolsOffered[serverId];
    if (only !== undefined) saved[serverId] = [...only].sort();
  }
  return saved;
}

/** Whether two drafts hold exactly the same values (the servers in any order). */
export function sameDraft(a: SettingsDraft, b: SettingsDraft): boolean {
  return (Object.keys(a) as Array<keyof SettingsDraft>).every((key) => sameValue(a[key], b[key]));
}

function sameValue(a: SettingsDraft[keyof SettingsDraft], b: SettingsDraft[keyof SettingsDraft]): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  if (typeof a === 'object' && typeof b === 'object') {
    const sorted = (choice: Record<string, string[]>) =>
      JSON.stringify(
        Object.keys(choice)
          .sort()
          .map((key) => [key, [...choice[key]!].sort()])
      );
    return sorted(a as Record<string, string[]>) === sorted(b as Record<string, string[]>);
  }
  return a === b;
}

/**
 * The draft once the conversation went from `before` to `after`: each field the person has not
 * edited (still as it was in `before`) takes the new value; an edited one stays. The provider
 * and the model go together (a model is one of its provider's): when the person edited either,
 * both stay; otherwise both follow. The same draft object when nothing in it changes (so "Saved."
 * stays).
 */
export function followed(draft: SettingsDraft, before: SettingsDraft, after: SettingsDraft): SettingsDraft {
  const next = { ...draft };
  const modelEdited = draft.providerId !== before.providerId || draft.model !== before.model;
  for (const key of Object.keys(draft) as Array<keyof SettingsDraft>) {
    const edited = key === 'providerId' || key === 'model' ? modelEdited : !sameValue(draft[key], before[key]);
    if (!edited) Object.assign(next, { [key]: after[key] });
  }
  return sameDraft(next, draft) ? draft : next;
}
