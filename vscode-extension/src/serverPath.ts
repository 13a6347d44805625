// Where the server binary comes from: the jcg.server.path setting, else the binary
// shipped in the extension for this platform (bin/<platform>-<arch>/), else jcg-lsp
// on PATH. Pure, with the file system passed in and paths spelled as the platform
// spells them (path.win32 for win32), so that the unit tests cover every platform.

import * as nodePath from 'path';

export interface Lookup {
  configured: string; // jcg.server.path ('' when unset)
  workspaceFolder?: string; // for a relative configured path
  extensionPath: string;
  platform: string; // process.platform
  arch: string; // process.arch
  pathEnv: string; // process.env.PATH
  isExecutable(p: string): boolean;
  exists(p: string): boolean;
}

export type Resolved =
  | { path: string; source: 'setting' | 'bundled' | 'PATH' }
  | { error: string; fix: 'settings' | 'install' };

export const INSTALL_HINT =
  'Install it with `go install github.com/jcg-lsp/jcg-lsp/cmd/jcg-lsp@latest` (or build it from the repository) and set jcg.server.path, or put jcg-lsp on PATH.';

export function binaryName(platform: string): string {
  return platform === 'win32' ? 'jcg-lsp.exe' : 'jcg-lsp';
}

/** bundledDir is the folder of the binary shipped for a platform. */
export function bundledDir(platform: string, arch: string): string {
  return `${platform}-${arch}`;
}

export function resolveServer(l: Lookup): Resolved {
  const exe = binaryName(l.platform);
  const path = l.platform === 'win32' ? nodePath.win32 : nodePath.posix;
  if (l.configured.trim() !== '') {
    let p = l.configured.trim();
    if (!path.isAbsolute(p) && l.workspaceFolder) {
      p = path.join(l.workspaceFolder, p);
    }
    if (!l.exists(p)) {
      return { error: `jcg.server.path is set to ${p}, which does not exist.`, fix: 'settings' };
    }
    if (!l.isExecutable(p)) {
      return { error: `jcg.server.path is set to ${p}, which is not an executable file.`, fix: 'settings' };
    }
    return { path: p, source: 'setting' };
  }
  const bundled = path.join(l.extensionPath, 'bin', bundledDir(l.platform, l.arch), exe);
  if (l.isExecutable(bundled)) {
    return { path: bundled, source: 'bundled' };
  }
  for (const entry of l.pathEnv.split(path.delimiter)) {
    // Windows allows quoted entries ("C:\Program Files\Go\bin").
    const dir = l.platform === 'win32' ? entry.replace(/^"(.*)"$/, '$1') : entry;
    if (dir === '') {
      continue;
    }
    const p = path.join(dir, exe);
    if (l.isExecutable(p)) {
      return { path: p, source: 'PATH' };
    }
  }
  return {
    error: `No jcg-lsp server binary: this extension ships none for ${bundledDir(l.platform, l.arch)} and jcg-lsp is not on PATH. ${INSTALL_HINT}`,
    fix: 'install',
  };
}
