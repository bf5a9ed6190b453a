import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createHost } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Resolves once `file` holds at least `lines` complete lines (waits on file-change events). */
async function untilLines(file: string, lines: number): Promise<void> {
  fs.writeFileSync(file, '', { flag: 'a' });
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      const count = fs.readFileSync(file, 'utf8').split('\n').length - 1;
      if (count >= lines) {
        watcher.close();
        resolve();
      }
    };
    const watcher = fs.watch(file, check);
    watcher.on('error', reject);
    check();
  });
}

describe('crash safety', () => {
  it('keeps every acknowledged task when the host is killed with SIGKILL mid-flood', async () => {
    const data = tempDir();
    const ackFile = path.join(data.dir, 'acks.txt');
    const dataDir = path.join(data.dir, 'host');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, '..', 'support', 'host-process.ts'), dataDir],
      {
        env: { ...process.env, FLOOD_COUNT: '1000000', FLOOD_CONCURRENCY: '16', FLOOD_ACK_FILE: ackFile },
        stdio: ['ignore', 'ignore', 'pipe'],
        // Its own process group, so the kill reaches the host and the server it spawned.
        detached: true
      }
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal))
    );
    try {
      await untilLines(ackFile, 400);
      process.kill(-child.pid!, 'SIGKILL');
      assert.equal(await exited, 'SIGKILL', stderr);

      const acked = fs
        .readFileSync(ackFile, 'utf8')
        .split('\n')
        .filter((line) => /^[A-Za-z0-9_-]{24}$/.test(line));
      assert.ok(acked.length >= 400);
      const host = createHost({ dataDir, autoConnect: false });
      try {
        // Every stored file parses: the one warning is the unclean stop's.
        assert.deepEqual(
          host.warnings.map((warning) =>
            /^Taskdesk did not close cleanly last time \(last seen running at about /.test(warning.message)
          ),
          [true],
          JSON.stringify(host.warnings)
        );
        const missing = acked.filter((taskId) => !host.receiver.record(taskId));
        assert.deepEqual(missing, [], 'every task whose CreateTaskResult was received is stored');
        const statuses = new Set(acked.map((taskId) => host.receiver.record(taskId)!.task.status));
        assert.ok(
          [...statuses].every((status) => status === 'completed' || status === 'failed' || status === 'working'),
          [...statuses].join()
        );
      } finally {
        await host.close();
      }
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      data.remove();
    }
  });
});
