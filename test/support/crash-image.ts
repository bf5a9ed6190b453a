import fs from 'node:fs';
import path from 'node:path';
import { inlineDocumentWriter } from '../../app/store/document-writer.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { tempDir } from './host-fixture.js';

/**
 * What a new run would find in a segment log's directory if the process died now: its files
 * copied (loading writes, so never the files the live log uses) and loaded by a new log, which is
 * closed again. Values are taken as they were stored.
 */
export function loadCrashImage<V>(dir: string) {
  const copy = tempDir('taskdesk-crash-image-');
  try {
    fs.cpSync(dir, path.join(copy.dir, 's'), { recursive: true });
    const log = new SegmentLog<V>({
      dir: path.join(copy.dir, 's'),
      corruptDir: path.join(copy.dir, 'c'),
      factory: confStoreFactory,
      documentWriter: inlineDocumentWriter(confStoreFactory),
      checkpointMs: 60_000
    });
    const loaded = log.load((value) => value as V);
    log.close();
    return loaded;
  } finally {
    copy.remove();
  }
}
