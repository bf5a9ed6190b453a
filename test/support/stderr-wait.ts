import type { Host } from '../../app/host/host.js';

/**
 * Resolves with a server's stderr once it holds `text`: stderr and stdout are separate pipes, so
 * a server can be ready before its earlier stderr lines are read. Waits on the host's own
 * stderr stream, checking after each chunk the child writes (`data` events), up to `timeoutMs`.
 */
export async function stderrContaining(
  host: Host,
  serverId: string,
  text: string,
  timeoutMs = 30_000
): Promise<{ text: string; truncated: boolean }> {
  const read = () => host.call('servers.stderr', { serverId });
  const now = await read();
  if (now.text.includes(text)) return now;
  const stream = host.connection(serverId)?.stderrStream;
  if (!stream) throw new Error(`${serverId} has no stderr to wait on`);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.off('data', check);
      reject(new Error(`stderr of ${serverId} did not show ${JSON.stringify(text)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const check = () => {
      // After the connection's own listener has appended the chunk.
      setImmediate(() => {
        void read().then((output) => {
          if (!output.text.includes(text)) return;
          clearTimeout(timer);
          stream.off('data', check);
          resolve(output);
        });
      });
    };
    stream.on('data', check);
  });
}
