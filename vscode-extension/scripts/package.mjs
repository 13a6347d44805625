// npm run package: builds the server for linux-x64 (and for this machine when it is
// another platform) with `go build -trimpath -ldflags='-s -w'` into
// bin/<platform>-<arch>/ (static: the server needs no cgo), bundles the extension and writes dist/jcg-lsp.vsix at the
// repository root with vsce.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ext = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(ext, '..');
const goos = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const goarch = { x64: 'amd64', arm64: 'arm64' };

const targets = new Map([['linux-x64', ['linux', 'amd64', 'jcg-lsp']]]);
if (goos[process.platform] && goarch[process.arch]) {
  const exe = process.platform === 'win32' ? 'jcg-lsp.exe' : 'jcg-lsp';
  targets.set(`${process.platform}-${process.arch}`, [goos[process.platform], goarch[process.arch], exe]);
}
rmSync(join(ext, 'bin'), { recursive: true, force: true });
for (const [dir, [os, arch, exe]] of targets) {
  const out = join(ext, 'bin', dir, exe);
  mkdirSync(dirname(out), { recursive: true });
  execFileSync('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', out, './cmd/jcg-lsp'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, GOOS: os, GOARCH: arch, CGO_ENABLED: '0' },
  });
  console.log(`package: server ${dir}: ${(statSync(out).size / 1e6).toFixed(1)} MB`);
}

execFileSync(process.execPath, [join(ext, 'scripts', 'build.mjs')], { stdio: 'inherit' });

const vsix = join(root, 'dist', 'jcg-lsp.vsix');
mkdirSync(dirname(vsix), { recursive: true });
execFileSync(
  process.execPath,
  [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix],
  { cwd: ext, stdio: 'inherit' },
);
console.log(`package: ${vsix}: ${(statSync(vsix).size / 1e6).toFixed(2)} MB`);
