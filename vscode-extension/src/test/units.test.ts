import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { describe, test } from 'node:test';

import { serverSettingsOf } from '../config';
import { levelOf } from '../levels';
import { Lookup, resolveServer } from '../serverPath';
import { levelPicks, nextStatus, ServerStatus, statusBarView } from '../status';
import { escapeHtml, parseTable, statisticsHtml } from '../statistics';

describe('resolveServer', () => {
  const base = (files: string[], over: Partial<Lookup> = {}): Lookup => ({
    configured: '',
    extensionPath: '/ext',
    platform: 'linux',
    arch: 'x64',
    pathEnv: ['/usr/bin', '/opt/go/bin'].join(path.delimiter),
    exists: (p) => files.includes(p) || files.includes(p + '!noexec'),
    isExecutable: (p) => files.includes(p),
    ...over,
  });

  test('the setting wins, relative to the workspace folder', () => {
    const l = base(['/ws/tools/jcg-lsp', '/ext/bin/linux-x64/jcg-lsp'], { configured: 'tools/jcg-lsp', workspaceFolder: '/ws' });
    assert.deepEqual(resolveServer(l), { path: '/ws/tools/jcg-lsp', source: 'setting' });
  });
  test('a bad setting is an error, not a silent fallback', () => {
    const r = resolveServer(base(['/ext/bin/linux-x64/jcg-lsp'], { configured: '/nowhere/jcg-lsp' }));
    assert.ok('error' in r && r.fix === 'settings' && r.error.includes('/nowhere/jcg-lsp'));
    const r2 = resolveServer(base(['/x/jcg-lsp!noexec'], { configured: '/x/jcg-lsp' }));
    assert.ok('error' in r2 && r2.error.includes('not an executable'));
  });
  test('then the bundled binary of the platform', () => {
    assert.deepEqual(resolveServer(base(['/ext/bin/linux-x64/jcg-lsp', '/usr/bin/jcg-lsp'])), {
      path: '/ext/bin/linux-x64/jcg-lsp',
      source: 'bundled',
    });
  });
  test('then PATH', () => {
    const r = resolveServer(base(['/ext/bin/linux-x64/jcg-lsp', '/opt/go/bin/jcg-lsp'], { arch: 'arm64' }));
    assert.deepEqual(r, { path: '/opt/go/bin/jcg-lsp', source: 'PATH' });
  });
  test('nothing: one error that says how to fix it', () => {
    const r = resolveServer(base([]));
    assert.ok('error' in r && r.fix === 'install' && r.error.includes('linux-x64') && r.error.includes('jcg.server.path'));
  });
  describe('on Windows', () => {
    const win = (files: string[], over: Partial<Lookup> = {}): Lookup =>
      base(files, {
        platform: 'win32',
        extensionPath: 'c:\\Users\\me\\.vscode\\extensions\\jcg-lsp.jcg-lsp-0.1.0-win32-x64',
        pathEnv: 'C:\\Windows\\system32;"C:\\Program Files\\Go\\bin";C:\\Users\\me\\go\\bin',
        ...over,
      });
    test('the bundled binary ends in .exe, under bin\\win32-x64', () => {
      const bundled = 'c:\\Users\\me\\.vscode\\extensions\\jcg-lsp.jcg-lsp-0.1.0-win32-x64\\bin\\win32-x64\\jcg-lsp.exe';
      assert.deepEqual(resolveServer(win([bundled])), { path: bundled, source: 'bundled' });
    });
    test('PATH is ;-separated, its entries may be quoted', () => {
      assert.deepEqual(resolveServer(win(['C:\\Users\\me\\go\\bin\\jcg-lsp.exe'])), { path: 'C:\\Users\\me\\go\\bin\\jcg-lsp.exe', source: 'PATH' });
      assert.deepEqual(resolveServer(win(['C:\\Program Files\\Go\\bin\\jcg-lsp.exe'])), { path: 'C:\\Program Files\\Go\\bin\\jcg-lsp.exe', source: 'PATH' });
    });
    test('a drive path in the setting is absolute, another is relative to the folder', () => {
      assert.deepEqual(resolveServer(win(['D:\\tools\\jcg-lsp.exe'], { configured: 'D:\\tools\\jcg-lsp.exe', workspaceFolder: 'c:\\ws' })), {
        path: 'D:\\tools\\jcg-lsp.exe',
        source: 'setting',
      });
      assert.deepEqual(resolveServer(win(['c:\\ws\\tools\\jcg-lsp.exe'], { configured: 'tools/jcg-lsp.exe', workspaceFolder: 'c:\\ws' })), {
        path: 'c:\\ws\\tools\\jcg-lsp.exe',
        source: 'setting',
      });
    });
  });
  test('macOS on Apple silicon: bin/darwin-arm64', () => {
    assert.deepEqual(resolveServer(base(['/ext/bin/darwin-arm64/jcg-lsp'], { platform: 'darwin', arch: 'arm64' })), {
      path: '/ext/bin/darwin-arm64/jcg-lsp',
      source: 'bundled',
    });
  });
});

test('serverSettingsOf drops the extension-only keys', () => {
  const raw = { level: 'correct-cast', server: { path: '/x' }, trace: { server: 'verbose' }, env: { a: 'b' } };
  assert.deepEqual(serverSettingsOf(raw), { level: 'correct-cast', env: { a: 'b' } });
  assert.equal(serverSettingsOf(null), null);
});

test('levelOf accepts names, titles and numbers', () => {
  assert.equal(levelOf('correct-cast')?.n, 3);
  assert.equal(levelOf('Encap-Respect')?.n, 2);
  assert.equal(levelOf(5)?.name, 'correct-env');
  assert.equal(levelOf(6)?.name, 'correct-jdk');
  assert.equal(levelOf('Correct-JDK')?.n, 6);
  assert.equal(levelOf('level 9'), undefined);
});

describe('status', () => {
  const ready: ServerStatus = {
    state: 'ready',
    reason: 'initial',
    level: 'correct-string',
    message: 'Correct-String: 40 reachable methods, 6 dynamic sites (2 unresolved or partial)',
    unresolved: 2,
    unresolvedByLevel: { 'correct-string': 2, 'behaved-cls': 6 },
    specFile: '/ws/jcg-spec.txt',
    specEntries: 0,
  };
  test('the status bar shows the level and the unresolved sites', () => {
    const v = statusBarView(ready, false);
    assert.equal(v.text, '$(type-hierarchy) Correct-String · 2 unresolved sites');
    assert.ok(v.tooltip.includes('Assumption level 4 Correct-String') && v.tooltip.includes('0 entries'));
    assert.ok(!v.tooltip.includes('does not license'));
    const beyond = statusBarView({ ...ready, unresolvedBeyond: 1 }, false);
    assert.ok(beyond.tooltip.includes('1 of the 2 unresolved sites take a value from a source Correct-String does not license'), beyond.tooltip);
    assert.equal(statusBarView({ ...ready, unresolved: 1 }, true).text, '$(sync~spin) $(type-hierarchy) Correct-String · 1 unresolved site');
    assert.ok(statusBarView(undefined, false).text.includes('analysing'));
    assert.ok(!v.tooltip.includes('Build:') && !v.tooltip.includes('on no class path'));
    const build = statusBarView({ ...ready, build: 'Maven: 6 libraries, 1 missing (ran)', missingClasses: 3 }, false);
    assert.ok(build.tooltip.includes('Build: Maven: 6 libraries, 1 missing (ran)'), build.tooltip);
    assert.ok(build.tooltip.includes('3 classes the reachable code refers to are on no class path'), build.tooltip);
    const failed = statusBarView({ state: 'failed', reason: 'initial', message: 'indexing: no JDK' }, false);
    assert.ok(failed.error && failed.tooltip.includes('no JDK'));
  });
  test('an interim status is marked and keeps the other levels\' counts', () => {
    const interim: ServerStatus = { ...ready, state: 'interim', unresolved: 1, unresolvedByLevel: undefined };
    assert.equal(statusBarView(interim, true).text, '$(sync~spin) $(type-hierarchy) Correct-String · 1 unresolved site (CHA)');
    assert.deepEqual(nextStatus(ready, interim).unresolvedByLevel, ready.unresolvedByLevel);
    assert.equal(nextStatus(ready, interim).unresolved, 1);
    const after: ServerStatus = { ...ready, unresolvedByLevel: { 'correct-string': 1 } };
    assert.deepEqual(nextStatus(interim, after), after);
  });
  test('the picker marks the current level and shows known counts', () => {
    const picks = levelPicks(ready);
    assert.equal(picks.length, 6); // levels 1-6, Correct-JDK last
    assert.equal(picks[5]?.label.includes('Correct-JDK'), true);
    assert.equal(picks[3]?.description, 'current · 2 unresolved sites');
    assert.equal(picks[0]?.description, '6 unresolved sites');
    assert.equal(picks[1]?.description, '');
    assert.ok(picks.every((p) => p.detail.length > 20));
    assert.equal(picks.filter((p) => p.current).length, 1);
  });
});

test('statistics: the server tables become HTML tables', () => {
  const text = [
    'CHA call graphs (time 0s: cached)',
    '          level  methods  edges  loading t/r/u  time',
    '    Behaved-CLs     3021   9000         4/0/4   1.2s',
    ' Correct-String     2000   5000         4/3/1     0s',
    't/r/u: dynamic sites in reachable methods.',
    '',
    'Dynamic sites in application and library code:',
    '          level  loading t/r/u/rv  invoke t/r/u/rv',
    '    Behaved-CLs           2/0/2/0          1/0/1/0',
    ' Correct-String           2/1/1/1          1/1/0/1',
    'rv: resolvable at the level.',
    '',
  ].join('\n');
  const blocks = parseTable(text);
  const tables = blocks.flatMap((b) => ('rows' in b ? [b.rows] : []));
  const notes = blocks.flatMap((b) => ('note' in b ? [b.note] : []));
  assert.equal(tables.length, 2);
  const [all = [], own = []] = tables;
  assert.equal(all.length, 3);
  assert.deepEqual(all[1], ['Behaved-CLs', '3021', '9000', '4/0/4', '1.2s']);
  assert.deepEqual(own[2], ['Correct-String', '2/1/1/1', '1/1/0/1']);
  assert.deepEqual(notes, ['CHA call graphs (time 0s: cached)', 't/r/u: dynamic sites in reachable methods.',
    'Dynamic sites in application and library code:', 'rv: resolvable at the level.']);
  const html = statisticsHtml(text + '<script>', 'vscode-resource:');
  assert.ok(html.includes('<th>Correct-String</th>') && !html.includes('<script>'));
  assert.equal(html.split('<table>').length, 3);
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
});
