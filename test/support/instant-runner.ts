import type { SamplingRunner } from '../../app/receiver/runners.js';

/** A sampling runner that answers at once, for tests and benchmarks of the receiver's own cost. */
export function instantSamplingRunner(): SamplingRunner {
  return {
    resumable: false,
    run: async () => ({
      type: 'result',
      result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'instant', stopReason: 'endTurn' }
    })
  };
}
