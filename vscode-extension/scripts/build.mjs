// Type-checks the extension (tsc --noEmit, strict) and bundles it with esbuild into
// dist/extension.js; with --tests, bundles the unit tests into out-test/ instead.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const require = createRequire(import.meta.url);
const ext = join(dirname(fileURLToPath(import.meta.url)), '..');
const tests = process.argv.includes('--tests');

execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', ext, '--noEmit'], { stdio: 'inherit' });

const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node18', external: ['vscode'], logLevel: 'warning' };
if (tests) {
  const dir = join(ext, 'src', 'test');
  rmSync(join(ext, 'out-test'), { recursive: true, force: true });
  await esbuild.build({
    ...common,
    entryPoints: readdirSync(dir).filter((f) => f.endsWith('.test.ts')).map((f) => join(dir, f)),
    outdir: join(ext, 'out-test'),
    sourcemap: 'inline',
  });
} else {
  await esbuild.build({
    ...common,
    entryPoints: [join(ext, 'src', 'extension.ts')],
    outfile: join(ext, 'dist', 'extension.js'),
    minify: true,
    sourcemap: false,
  });
}
