import { z } from 'zod';
import { AssistantToolPolicySchema, type AssistantToolPolicy } from '../contract/assistant.js';
import { copyJson } from '../core/json-copy.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument, type OpenedDocument } from '../store/versioned-document.js';

/** Stored as a list of pairs, not an object: a server id such as `__proto__` stays a plain key. */
const PoliciesSchema = z.array(z.tuple([z.string(), AssistantToolPolicySchema]));

/** The assistant's tool-call policy per server ("ask" when none is saved), kept in `dataDir`. */
export class AssistantToolPolicies {
  readonly warning: { message: string; movedTo: string } | undefined;
  readonly #doc: OpenedDocument<Array<[string, AssistantToolPolicy]>>;
  readonly #policies: Map<string, AssistantToolPolicy>;

  constructor(options: { dir: string; corruptDir: string; factory: JsonFileStoreFactory }) {
    this.#doc = openVersionedDocument({
      ...options,
      name: 'assistant-policies',
      label: 'assistant tool-call policies',
      version: 1,
      schema: PoliciesSchema,
      empty: () => []
    });
    this.warning = this.#doc.warning;
    this.#policies = new Map(this.#doc.value);
  }

  /** A copy of the server's policy; read on every tool call the model makes, so no schema parse or `structuredClone` here. */
  get(serverId: string): AssistantToolPolicy {
    const saved = this.#policies.get(serverId);
    return saved ? copyJson(saved) : { mode: 'ask', alwaysAllow: [] };
  }

  set(serverId: string, policy: AssistantToolPolicy): AssistantToolPolicy {
    const parsed = AssistantToolPolicySchema.parse(policy);
    const next = new Map(this.#policies).set(serverId, parsed);
    this.#doc.save([...next]);
    this.#policies.set(serverId, parsed);
    return this.get(serverId);
  }
}
