import { Worker } from 'node:worker_threads';
import { confStoreFactory, writeDocument, type JsonFileStoreFactory } from './json-file-store.js';
import { jsonText } from './json-text.js';
import { syncDirectory } from './sync-directory.js';

/**
 * A document's JSON text, or the pieces it is the concatenation of: a `{ json }` piece stands for
 * the JSON text of its value, made where the document is written (the worker, for
 * `workerDocumentWriter`). A checkpoint sends its large records that way: cloning a record into
 * the worker copies its long strings as they are, while a text made here (`jsonText` keeps the
 * long parts of a record's text shared with the record, as a rope) would first be made flat,
 * megabytes allocated and copied on the event loop, then copied again into the message.
 */
export type DocumentText = string | Array<string | { json: unknown }>;

/** One document to write whole: its directory, its name (no extension), and its JSON text. */
export interface DocumentWrite {
  cwd: string;
  name: string;
  data: DocumentText;
}

/** The text of `data`, its `{ json }` pieces serialized by `serialize`. */
export function documentText(data: DocumentText, serialize: (value: unknown) => string | undefined): string {
  if (typeof data === 'string') return data;
  return data.map((piece) => (typeof piece === 'string' ? piece : (serialize(piece.json) ?? 'null'))).join('');
}

/**
 * Writes a document whole, or not at all, and makes its name durable (its directory synced):
 * resolves once it is on disk under its name, rejects (`ENOSPC` for one that came up short, see
 * {@link writeDocument}) when it is not, leaving any earlier document of that name as it was.
 */
export type DocumentWriter = (write: DocumentWrite) => Promise<void>;

/** What the worker answers for one write. */
export interface DocumentWorkerReply {
  id: number;
  error?: { message: string; code?: string };
}

/**
 * Writes through `factory` on the event loop, a turn later: for a store factory that only this
 * thread can run (a test's failing disk), with the same asynchronous order as the worker.
 */
export function inlineDocumentWriter(factory: JsonFileStoreFactory): DocumentWriter {
  return ({ cwd, name, data }) =>
    new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        try {
          writeDocument(factory, { cwd, name, serialize: () => documentText(data, jsonText) }, {});
          syncDirectory(cwd);
          resolve();
        } catch (error) {
          reject(error);
        }
      })
    );
}

/** Document writes on their way, from every writer of the process. */
const onTheirWay = new Set<Promise<void>>();

/** Counts a write's promise in {@link documentWritesLanded} until it settles; returns it. */
export function trackDocumentWrite(write: Promise<void>): Promise<void> {
  onTheirWay.add(write);
  const done = () => onTheirWay.delete(write);
  write.then(done, done);
  return write;
}

/**
 * Resolves once every document write on its way now has landed or failed, a superseded
 * background checkpoint's too: a host that closes waits for it, so that nothing writes into its
 * data directory afterwards (a folder being removed, a profile being copied).
 */
export async function documentWritesLanded(): Promise<void> {
  while (onTheirWay.size > 0) await Promise.allSettled([...onTheirWay]);
}

let shared: DocumentWriter | undefined;

/**
 * Writes through conf (electron-store's engine, which writes the very files electron-store
 * does) in a worker thread, so that a checkpoint's writes and fsyncs of megabytes never hold the
 * event loop: conf has only synchronous writes. One worker for the process, started on the
 * first write and not holding the process open; should it fail to start, writes are made on the
 * event loop as before.
 */
export function workerDocumentWriter(): DocumentWriter {
  return (write) => (shared ??= startWorker())(write);
}

function startWorker(): DocumentWriter {
  // The worker runs the same build as this module: TypeScript under tsx, JavaScript once built.
  const script = new URL(
    import.meta.url.endsWith('.ts') ? './document-worker.ts' : './document-worker.js',
    import.meta.url
  );
  const waiting = new Map<number, { write: DocumentWrite; resolve: () => void; reject: (error: unknown) => void }>();
  const fallback = inlineDocumentWriter(confStoreFactory);
  let worker: Worker | undefined;
  let nextId = 1;
  // A worker that cannot start or stops (a packaging that cannot load it): its writes, and every
  // later one, are made on the event loop instead. A write it left half done is made again whole.
  const fail = () => {
    worker = undefined;
    for (const { write, resolve, reject } of waiting.values()) fallback(write).then(resolve, reject);
    waiting.clear();
  };
  try {
    worker = new Worker(script);
    worker.on('message', ({ id, error }: DocumentWorkerReply) => {
      const waiter = waiting.get(id);
      waiting.delete(id);
      if (waiting.size === 0) worker?.unref();
      if (!waiter) return;
      if (error)
        waiter.reject(Object.assign(new Error(error.message), error.code !== undefined && { code: error.code }));
      else waiter.resolve();
    });
    worker.on('error', fail);
    worker.on('exit', fail);
    // After the listeners, which hold it: only a write on its way holds the process open.
    worker.unref();
  } catch {
    worker = undefined;
  }
  return (write) => {
    if (!worker) return fallback(write);
    const id = nextId++;
    const running = worker;
    return new Promise<void>((resolve, reject) => {
      waiting.set(id, { write, resolve, reject });
      // Held open while a write is on its way: a write must not be dropped by an exit.
      running.ref();
      try {
        running.postMessage({ id, ...write });
      } catch (error) {
        // A value that cannot be cloned (none a store keeps, being JSON data) is sent as its text.
        if ((error as Error | undefined)?.name !== 'DataCloneError') throw error;
        running.postMessage({ id, ...write, data: documentText(write.data, jsonText) });
      }
    });
  };
}
