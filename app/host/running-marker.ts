import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** How often a running Taskdesk touches its marker: its time says about when it last ran. */
const TOUCH_MS = 60_000;

/**
 * A marker untouched for this long is stale even when a process of its id runs: ids are used
 * again (after a reboot), and a running Taskdesk touches its marker every minute.
 */
export const STALE_MS = 5 * TOUCH_MS;

/** What an earlier run that did not close cleanly left behind. */
export interface UncleanStop {
  /** When its marker was last written (about when it stopped), in ms since the epoch; absent when unknown. */
  lastSeenAt?: number;
}

/**
 * A small file in `<dataDir>/running/` for as long as Taskdesk runs (written at start, touched
 * every minute, removed by a clean close), so that the next start can tell when a run ended
 * without closing (SIGKILL, a crash, power loss): plain work in memory was lost then.
 *
 * One file per instance, named by its process id: another instance running on the same data
 * directory (browser mode beside the app) is neither reported nor has its marker removed. A marker
 * of a process that is gone, untouched for minutes, or of this very process (one host per process:
 * a marker of ours is a host that was never closed), is an unclean stop. Every file operation may fail (a read-only
 * data directory): then nothing is reported, and Taskdesk runs on.
 */
export class RunningMarker {
  readonly #file: string;
  #timer: NodeJS.Timeout | undefined;
  #removed = false;

  /** The marker's content, written when it starts (and again should it be taken). */
  readonly #text = `${JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() })}\n`;

  private constructor(file: string) {
    this.#file = file;
  }

  /**
   * Looks for markers of earlier runs (removing them: each is reported once), then writes this
   * run's. `problem` says why this run's marker could not be written.
   */
  static start(dataDir: string): { marker: RunningMarker; unclean?: UncleanStop; problem?: string } {
    const dir = path.join(dataDir, 'running');
    const unclean = takeStale(dir);
    const marker = new RunningMarker(path.join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`));
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(marker.#file, marker.#text);
      marker.#timer = setInterval(() => marker.#touch(), TOUCH_MS);
      // The marker never keeps the process alive.
      marker.#timer.unref();
    } catch (error) {
      return { marker, ...(unclean && { unclean }), problem: error instanceof Error ? error.message : String(error) };
    }
    return { marker, ...(unclean && { unclean }) };
  }

  /** This run's id: its marker's name, which files of this run beside it (the open-work record) are named by. */
  get id(): string {
    return path.basename(this.#file, '.json');
  }

  /** The ids of the runs whose markers are in `dataDir` now: after {@link start}, the runs that are running. */
  static runningIds(dataDir: string): Set<string> {
    try {
      return new Set(fs.readdirSync(path.join(dataDir, 'running')).map((name) => path.basename(name, '.json')));
    } catch {
      return new Set();
    }
  }

  /** A clean close: the marker goes. */
  remove(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#removed) return;
    this.#removed = true;
    try {
      fs.rmSync(this.#file, { force: true });
    } catch {
      // Not removable (a read-only data directory): the next start reports an unclean stop.
    }
  }

  #touch(): void {
    try {
      const now = new Date();
      fs.utimesSync(this.#file, now, now);
    } catch (error) {
      // Taken as stale by another Taskdesk starting on this directory (this machine slept past the
      // stale limit): written again, so that this run, which still runs, is not taken for gone
      // (its open-work record left alone). Not writable: the next start knows less precisely
      // when this run ended.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
      try {
        fs.writeFileSync(this.#file, this.#text);
      } catch {
        // As above.
      }
    }
  }
}

/** Removes the markers of runs that ended without closing, and says when the latest one was last written. */
function takeStale(dir: string): UncleanStop | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  let found = false;
  let lastSeenAt: number | undefined;
  for (const name of names) {
    const file = path.join(dir, name);
    let written: number | undefined;
    try {
      written = fs.statSync(file).mtimeMs;
    } catch {
      // Unknown: reported all the same.
    }
    const pid = Number.parseInt(name, 10);
    const fresh = written !== undefined && Date.now() - written < STALE_MS;
    // Another instance running on this data directory.
    if (Number.isInteger(pid) && pid !== process.pid && fresh && isAlive(pid)) continue;
    found = true;
    if (written !== undefined) lastSeenAt = Math.max(lastSeenAt ?? 0, written);
    try {
      fs.rmSync(file, { recursive: true, force: true });
    } catch {
      // Not removable: reported again at the next start.
    }
  }
  if (!found) return undefined;
  return lastSeenAt === undefined ? {} : { lastSeenAt };
}

/** Whether a process with this id runs (one of another user's included). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
