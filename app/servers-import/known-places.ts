import path from 'node:path';
import type { ImportKind } from '../contract/server-settings.js';

/** Where Taskdesk looks for other hosts' configs: the user's home, platform and app data. */
export interface ImportPlaces {
  home: string;
  platform: NodeJS.Platform;
  /** Windows' `%APPDATA%` (Roaming); by default `<home>\AppData\Roaming`. */
  appData?: string;
  /**
   * Elsewhere but macOS, `$XDG_CONFIG_HOME`, where Electron apps (Claude Desktop, VS Code) keep
   * their settings when it is set; by default `<home>/.config`. Ignored unless absolute, as the
   * XDG Base Directory spec says.
   */
  configHome?: string;
}

/** One file a config of a kind may be in. */
export interface KnownFile {
  kind: ImportKind;
  label: string;
  path: string;
  /** For a project's file: the project folder (`${workspaceFolder}`). */
  workspaceFolder?: string;
}

/**
 * The files of Claude Desktop, Cursor and VS Code for the user (at the platform's own places),
 * and those of each project folder given (`.cursor/mcp.json`, `.vscode/mcp.json`).
 */
export function knownFiles(places: ImportPlaces, projectDirs: readonly string[] = []): KnownFile[] {
  const p = places.platform === 'win32' ? path.win32 : path.posix;
  const appSupport =
    places.platform === 'darwin'
      ? p.join(places.home, 'Library', 'Application Support')
      : places.platform === 'win32'
        ? (places.appData ?? p.join(places.home, 'AppData', 'Roaming'))
        : places.configHome !== undefined && p.isAbsolute(places.configHome)
          ? places.configHome
          : p.join(places.home, '.config');
  const files: KnownFile[] = [
    {
      kind: 'claude-desktop',
      label: 'Claude Desktop',
      path: p.join(appSupport, 'Claude', 'claude_desktop_config.json')
    },
    { kind: 'cursor', label: 'Cursor', path: p.join(places.home, '.cursor', 'mcp.json') },
    {
      kind: 'vscode-user',
      label: 'VS Code (user settings)',
      path: p.join(appSupport, 'Code', 'User', 'settings.json')
    },
    { kind: 'vscode-user', label: 'VS Code (user mcp.json)', path: p.join(appSupport, 'Code', 'User', 'mcp.json') }
  ];
  for (const dir of projectDirs) {
    const folder = p.resolve(dir);
    files.push(
      {
        kind: 'cursor-project',
        label: `Cursor project ${folder}`,
        path: p.join(folder, '.cursor', 'mcp.json'),
        workspaceFolder: folder
      },
      {
        kind: 'vscode-workspace',
        label: `VS Code workspace ${folder}`,
        path: p.join(folder, '.vscode', 'mcp.json'),
        workspaceFolder: folder
      }
    );
  }
  return files;
}

/**
 * The known file a path names, if it is one (a project's `.cursor/mcp.json` or `.vscode/mcp.json`
 * under any folder): a file named to import from is read as what it is, any other as a `file`.
 */
export function knownFileAt(places: ImportPlaces, file: string): KnownFile | undefined {
  const p = places.platform === 'win32' ? path.win32 : path.posix;
  const full = p.resolve(file);
  const user = knownFiles(places).find((known) => known.path === full);
  if (user) return user;
  const folder = p.dirname(p.dirname(full));
  return knownFiles(places, [folder]).find((known) => known.path === full && known.workspaceFolder !== undefined);
}
