/**
 * Server settings as the Edit form and the Import panel see them: every field of a server, with
 * the values of secrets (env vars and headers kept in the key store) never included.
 *
 * Depends on zod and `import-limits.ts` alone, so the renderer can import it.
 */
import { z } from 'zod';
import { MAX_IMPORT_TEXT } from './import-limits.js';

/** A server's protocol pin: `auto` probes, the others speak one revision. */
export const ProtocolPinSchema = z.enum(['auto', '2025-11-25', '2026-07-28']);

/**
 * One env var or header. `secret`: its value lives in the key store; in answers it never has a
 * `value`, and in `servers.update` a secret without one keeps the value stored.
 */
export const SettingEntrySchema = z.object({
  name: z.string().min(1).max(256),
  value: z.string().optional(),
  secret: z.boolean().default(false)
});
export type SettingEntry = z.infer<typeof SettingEntrySchema>;

/** How a server is reached, field by field, with env and headers as entries. */
export const TransportSettingsSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    cwd: z.string().optional(),
    env: z.array(SettingEntrySchema).default([])
  }),
  z.object({
    type: z.literal('http'),
    url: z.url(),
    headers: z.array(SettingEntrySchema).default([])
  })
]);

/** Every field of a server but its id (tasks are kept per id, so it does not change). */
export const EditableServerSchema = z.object({
  name: z.string().min(1),
  autoConnect: z.boolean(),
  protocol: ProtocolPinSchema.default('auto'),
  transport: TransportSettingsSchema
});
export type EditableServer = z.infer<typeof EditableServerSchema>;
export type EditableServerInput = z.input<typeof EditableServerSchema>;

/** `servers.get`: a saved server's settings, secrets by name only. */
export const ServerSettingsSchema = EditableServerSchema.extend({
  id: z.string(),
  /** False for a server given by the host's configuration: it cannot be edited here. */
  editable: z.boolean()
});
export type ServerSettings = z.infer<typeof ServerSettingsSchema>;

/** `servers.stderr`: what the server's latest process wrote to stderr, its secrets redacted. */
export const ServerStderrSchema = z.object({
  text: z.string(),
  /** Older output was dropped to keep the last 64 KiB / 200 lines. */
  truncated: z.boolean()
});

/** Where an importable configuration comes from. */
export const ImportKindSchema = z.enum([
  'claude-desktop',
  'cursor',
  'cursor-project',
  'vscode-user',
  'vscode-workspace',
  /**
   * A config file the person named, wherever it is: by its path (under Project folders), or
   * chosen in the page, which sends its text and name (no path: a browser gives none).
   */
  'file',
  'pasted'
]);
export type ImportKind = z.infer<typeof ImportKindSchema>;

/** One server found in a configuration, as the Import panel shows it. */
export const ImportedServerSchema = z.object({
  /** Its name in the file (the key under `mcpServers` / `servers`). */
  key: z.string(),
  /** The id it would get here (its name, made a valid id). */
  id: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** The command and arguments, or the URL, with secret-looking values hidden. */
  target: z.string(),
  /** Env vars (stdio) or headers (HTTP): names, a value only for those not taken for secrets. */
  env: z.array(SettingEntrySchema),
  headers: z.array(SettingEntrySchema),
  /** VS Code `${input:…}` ids this server uses. */
  inputs: z.array(z.string()),
  /** Fields Taskdesk does not use (kept out of the import, and said). */
  unknownFields: z.array(z.string()),
  /** Variables (`${env:…}`, …) left as written, since Taskdesk cannot resolve them. */
  unresolved: z.array(z.string()),
  /** Why this one cannot be imported (e.g. an SSE server); absent when it can. */
  problem: z.string().optional(),
  /**
   * The app whose config it is has it switched off (`"disabled": true`): offered unticked, and
   * imported with `autoConnect: false`, not connected.
   */
  disabled: z.literal(true).optional(),
  /** A server with this id or name exists already. */
  clash: z.boolean(),
  /**
   * The name of a server Taskdesk has that runs the same command, arguments, folder and env vars
   * (or URL and headers): a copy of it. Never set for one with secrets, whose values cannot be
   * compared, nor for one with variables filled in at import.
   */
  sameAs: z.string().optional()
});
export type ImportedServer = z.infer<typeof ImportedServerSchema>;

/** A VS Code input a server refers to (`promptString`): asked for at import. */
export const ImportInputSchema = z.object({
  id: z.string(),
  description: z.string().optional(),
  password: z.boolean()
});

/** One place a configuration may be: whether it exists, and what it holds or why it could not be read. */
export const ImportSourceSchema = z.object({
  kind: ImportKindSchema,
  label: z.string(),
  /** The file; absent for pasted JSON and for a file chosen in the page (its `label` is its name). */
  path: z.string().optional(),
  exists: z.boolean(),
  /** Why it could not be read (not JSON, not the expected shape). Nothing is imported from it. */
  error: z.string().optional(),
  servers: z.array(ImportedServerSchema),
  inputs: z.array(ImportInputSchema)
});
export type ImportSource = z.infer<typeof ImportSourceSchema>;

/** A config file chosen in the page: its name, and its text as the page read it (it has no path). */
export const ChosenConfigSchema = z.object({
  name: z.string().min(1).max(255),
  text: z.string().max(MAX_IMPORT_TEXT)
});
export type ChosenConfig = z.infer<typeof ChosenConfigSchema>;

/**
 * A file of one of the known shapes, or text: pasted, or, with its `name`, a file chosen in the
 * page (read as pasted text is, and said by its name).
 */
export const ImportOriginSchema = z.union([
  z.object({ path: z.string().min(1) }),
  z.object({ text: z.string().min(1).max(MAX_IMPORT_TEXT), name: z.string().min(1).max(255).optional() })
]);
export type ImportOrigin = z.infer<typeof ImportOriginSchema>;

export const ServerSettingsMethods = {
  /** A server's settings for the Edit form: secrets by name only. */
  'servers.get': { params: z.object({ serverId: z.string() }), result: ServerSettingsSchema },
  /**
   * Changes a saved server's fields; secrets go to the key store. A server that was connected,
   * connecting or failed reconnects with the new settings when they change how it is reached
   * (command, arguments, folder, env vars, URL, headers, protocol); a new name or Connect at
   * start applies to its connection in place.
   */
  'servers.update': {
    params: z.object({ serverId: z.string(), settings: EditableServerSchema }),
    result: z.object({
      settings: ServerSettingsSchema,
      /** Whether it is being connected again for these settings (its state events follow). */
      reconnects: z.boolean()
    })
  },
  'servers.stderr': { params: z.object({ serverId: z.string() }), result: ServerStderrSchema },
  /**
   * The known configuration files (and `projectDirs`' ones, `file` and `text` if given), parsed. A
   * path in `projectDirs` that is a file is read as a config itself (kind `file`), wherever it is;
   * so is a `file` chosen in the page, by its text (kind `file`, no path, labelled with its name).
   */
  'servers.importFind': {
    params: z
      .object({
        projectDirs: z.array(z.string()).max(20).optional(),
        file: ChosenConfigSchema.optional(),
        text: z.string().max(MAX_IMPORT_TEXT).optional()
      })
      .default({}),
    result: z.object({ sources: z.array(ImportSourceSchema) })
  },
  /**
   * Adds the picked servers of one source. A source that does not parse adds nothing (−32602);
   * a clash is renamed (`name-2`) or skipped as `onClash` says; under `skip`, so is a copy of a
   * server Taskdesk has (`sameAs`: the same command, arguments and settings, or URL), whatever its name.
   */
  'servers.importAdd': {
    params: z.object({
      origin: ImportOriginSchema,
      picks: z
        .array(
          z.object({
            key: z.string(),
            /** Env vars and headers to keep in the key store (an `Authorization` header always is). */
            secretEnv: z.array(z.string()).default([]),
            secretHeaders: z.array(z.string()).default([])
          })
        )
        .min(1),
      onClash: z.enum(['rename', 'skip']),
      /** Values of the VS Code inputs the picked servers use, by input id. */
      inputs: z.record(z.string(), z.string()).default({}),
      autoConnect: z.boolean().default(false)
    }),
    result: z.object({
      /**
       * Each server added; `autoConnect` as saved (and connected now when true): false for one its
       * app has switched off (`switchedOff`), whatever was asked, as the file said at the import.
       */
      added: z.array(
        z.object({
          key: z.string(),
          id: z.string(),
          name: z.string(),
          autoConnect: z.boolean(),
          switchedOff: z.literal(true).optional()
        })
      ),
      skipped: z.array(z.object({ key: z.string(), reason: z.string() }))
    })
  }
} as const;
