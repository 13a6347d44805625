// The manifest (package.json) against the code and the server: contributed settings
// are exactly the keys the server reads (server/settings.go) plus the extension's
// own, the level enum is LEVELS, every command is registered.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { EXTENSION_KEYS, SERVER_KEYS, SHOW_CALLERS } from '../config';
import { LEVELS } from '../levels';

const ext = join(__dirname, '..');
const repo = join(ext, '..');

interface Property {
  title?: string;
  description?: string;
  markdownDescription?: string;
  enum?: string[];
  enumDescriptions?: string[];
}
interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category: string }[];
    configuration: { properties: Record<string, Property> };
  };
}
const manifest = JSON.parse(readFileSync(join(ext, 'package.json'), 'utf8')) as Manifest;
const properties = manifest.contributes.configuration.properties;

test('contributed settings are the server keys and the extension keys', () => {
  const want = [...SERVER_KEYS, ...EXTENSION_KEYS].map((k) => `jcg.${k}`).sort();
  assert.deepEqual(Object.keys(properties).sort(), want);
});

test('every setting has a title and a description', () => {
  for (const [k, p] of Object.entries(properties)) {
    assert.ok(p.title, `${k} has no title`);
    assert.ok(p.description ?? p.markdownDescription, `${k} has no description`);
    if (p.enum) {
      assert.equal(p.enumDescriptions?.length, p.enum.length, `${k}: one description per enum value`);
    }
  }
});

test('the server reads exactly SERVER_KEYS (server/settings.go)', () => {
  const src = readFileSync(join(repo, 'server', 'settings.go'), 'utf8');
  const apply = src.slice(src.indexOf('func (st *Settings) apply('), src.indexOf('func parseSeverity('));
  const keys = new Set<string>();
  for (const m of apply.matchAll(/^\s*case ([^:\n]+):$/gm)) {
    for (const k of (m[1] ?? '').matchAll(/"([^"]+)"/g)) {
      keys.add(k[1] ?? '');
    }
  }
  keys.delete('assumptionLevel'); // an alias of level
  assert.deepEqual([...keys].sort(), [...SERVER_KEYS].sort());
});

test("the caller lenses' command is the server's", () => {
  const src = readFileSync(join(repo, 'server', 'codelens.go'), 'utf8');
  assert.match(src, new RegExp(`CommandShowCallers = "${SHOW_CALLERS.replace('.', '\\.')}"`));
  assert.equal(properties['jcg.unreachable']?.enum?.join(','), 'hint,off');
});

test('the level enum is LEVELS, with their descriptions', () => {
  const level = properties['jcg.level'];
  assert.ok(level);
  assert.deepEqual(level.enum, LEVELS.map((l) => l.name));
  assert.deepEqual(level.enumDescriptions, LEVELS.map((l) => l.description));
  const go = readFileSync(join(repo, 'analysis', 'callgraph', 'level.go'), 'utf8');
  for (const l of LEVELS) {
    assert.ok(go.includes(`"${l.name}"`) && go.includes(`"${l.title}"`), `${l.name} / ${l.title} not in level.go`);
  }
});

test('the severity enums are what the server parses', () => {
  for (const k of ['jcg.diagnosticSeverity', 'jcg.nativeDiagnosticSeverity']) {
    assert.deepEqual(properties[k]?.enum, ['error', 'warning', 'information', 'hint', 'off']);
  }
});

test('commands are contributed under JCG and registered', () => {
  const src = readFileSync(join(ext, 'src', 'extension.ts'), 'utf8');
  const registered = [...src.matchAll(/reg\('([^']+)'/g)].map((m) => m[1]);
  const contributed = manifest.contributes.commands.map((c) => c.command);
  assert.deepEqual(contributed.sort(), registered.sort());
  assert.deepEqual(manifest.contributes.commands.map((c) => c.title).sort(), [
    'Export Call Graph',
    'Restart Server',
    'Select Assumption Level',
    'Show Analysis Statistics',
    'Show Class Path',
  ]);
  for (const c of manifest.contributes.commands) {
    assert.equal(c.category, 'JCG');
  }
  // The server's commands are registered by the language client under their own
  // names: ours must differ.
  const server = readFileSync(join(repo, 'server', 'command.go'), 'utf8');
  for (const m of server.matchAll(/= "(jcg\.[A-Za-z]+)"/g)) {
    assert.ok(!contributed.includes(m[1] ?? ''), `${m[1] ?? ''} is a server command`);
  }
});

test('activation on Java files and build files; vscode-languageclient 9 engine', () => {
  for (const e of [
    'onLanguage:java',
    'workspaceContains:**/pom.xml',
    'workspaceContains:**/build.gradle',
    'workspaceContains:**/build.gradle.kts',
    'workspaceContains:**/*.class',
  ]) {
    assert.ok(manifest.activationEvents.includes(e), e);
  }
  assert.equal(manifest.engines.vscode, '^1.82.0');
  assert.equal(manifest.main, './dist/extension.js');
});
