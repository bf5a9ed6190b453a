/**
 * The worker thread of `workerDocumentWriter`: writes each document it is sent through conf,
 * whole or not at all (see `writeDocument`), syncs its directory, and answers with its id.
 */
import { parentPort } from 'node:worker_threads';
import { errorMessage } from '../core/errors.js';
import { documentText, type DocumentWorkerReply, type DocumentWrite } from './document-writer.js';
import { confStoreFactory, writeDocument } from './json-file-store.js';
import { syncDirectory } from './sync-directory.js';

parentPort?.on('message', ({ id, cwd, name, data }: DocumentWrite & { id: number }) => {
  let reply: DocumentWorkerReply = { id };
  try {
    // Pieces sent as values are serialized here, off the host's event loop.
    writeDocument(
      confStoreFactory,
      { cwd, name, serialize: () => documentText(data, (value) => JSON.stringify(value)) },
      {}
    );
    syncDirectory(cwd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    reply = { id, error: { message: errorMessage(error), ...(typeof code === 'string' && { code }) } };
  }
  parentPort?.postMessage(reply);
});
