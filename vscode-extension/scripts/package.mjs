// npm run package [-- --target T ...]: one .vsix per VS Code target, each with only
// its own server. The servers are built with `go build -trimpath -ldflags='-s -w'`
// (static: the server needs no cgo) into dist/server/<target>/; for each target
// the bundle (dist/extension.js) and that one binary, under bin/<target>/ where the
// extension looks for it, go into dist/jcg-lsp-<target>.vsix at the repository root,
// written by `vsce package --target`. Without --target: every target below.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const ext = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(ext, '..');

// VS Code's target names are `${process.platform}-${process.arch}`, which is also
// the folder the extension looks in (src/serverPath.ts).
const TARGETS = {
  'linux-x64': { goos: 'linux', goarch: 'amd64' },
  'linux-arm64': { goos: 'linux', goarch: 'arm64' },
  'darwin-x64': { goos: 'darwin', goarch: 'amd64' },
  'darwin-arm64': { goos: 'darwin', goarch: 'arm64' },
  'win32-x64': { goos: 'windows', goarch: 'amd64' },
};

const { values } = parseArgs({ options: { target: { type: 'string', multiple: true } } });
const targets = values.target ?? Object.keys(TARGETS);
for (const t of targets) {
  if (!TARGETS[t]) {
    console.error(`package: unknown target ${t}; the targets are ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
}
const exeName = (t) => (t.startsWith('win32-') ? 'jcg-lsp.exe' : 'jcg-lsp');
const mb = (p) => (statSync(p).size / 1e6).toFixed(2);

const servers = join(root, 'dist', 'server');
for (const t of targets) {
  const out = join(servers, t, exeName(t));
  mkdirSync(dirname(out), { recursive: true });
  execFileSync('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', out, './cmd/jcg-lsp'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, GOOS: TARGETS[t].goos, GOARCH: TARGETS[t].goarch, CGO_ENABLED: '0' },
  });
  console.log(`package: server ${t}: ${mb(out)} MB`);
}

execFileSync(process.execPath, [join(ext, 'scripts', 'build.mjs')], { stdio: 'inherit' });

// bin/ holds exactly one target's server while vsce packages it (.vscodeignore ships
// bin/**).
const bin = join(ext, 'bin');
const stage = (t) => {
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(join(bin, t), { recursive: true });
  copyFileSync(join(servers, t, exeName(t)), join(bin, t, exeName(t)));
};
for (const t of targets) {
  stage(t);
  const vsix = join(root, 'dist', `jcg-lsp-${t}.vsix`);
  execFileSync(
    process.execPath,
    [
      require.resolve('@vscode/vsce/vsce'),
      'package',
      '--target',
      t,
      '--no-dependencies',
      '--skip-license',
      '--allow-missing-repository',
      '--out',
      vsix,
    ],
    { cwd: ext, stdio: 'inherit' },
  );
  console.log(`package: ${vsix}: ${mb(vsix)} MB`);
}

// Leave this machine's server in bin/ for running the extension from the source tree.
const host = `${process.platform}-${process.arch}`;
if (targets.includes(host)) {
  stage(host);
} else {
  rmSync(bin, { recursive: true, force: true });
}
