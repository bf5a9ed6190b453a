import { HostError } from '../core/errors.js';

/**
 * A server's error answer to the retry of an exchange (its answers sent, or the request sent again
 * after a link), already said in Taskdesk's words with the server's code, message and data (under
 * `serverData`) and the round: what ends the call says it as it is, not wrapped in more words.
 */
export class RetryRefused extends HostError {
  constructor(code: number, message: string, data: { serverData?: unknown; round: number }) {
    super(code, message, data);
    this.name = 'RetryRefused';
  }
}
