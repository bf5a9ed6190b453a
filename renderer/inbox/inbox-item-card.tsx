import { memo } from 'react';
import type { InboxItem } from '../../app/contract/host-api.js';
import { ElicitationFormCard } from './elicitation-form-card.js';
import { ElicitationUrlCard } from './elicitation-url-card.js';
import { SamplingApprovalCard } from './sampling-approval-card.js';
import { SamplingReplyCard } from './sampling-reply-card.js';

/** The card of an item, by kind; a kind added to the contract without a card fails to compile. */
export const InboxItemCard = memo(function InboxItemCard({ item }: { item: InboxItem }) {
  const kind = item.kind;
  switch (kind) {
    case 'elicitation':
      return item.request.mode === 'url' ? <ElicitationUrlCard item={item} /> : <ElicitationFormCard item={item} />;
    case 'sampling':
      return <SamplingReplyCard item={item} />;
    case 'sampling-approval':
    case 'sampling-review':
      return <SamplingApprovalCard item={{ ...item, kind }} />;
    default: {
      const missed: never = kind;
      throw new Error(`No card for inbox items of kind ${String(missed)}`);
    }
  }
});
