// The settings the server reads: the keys of the "jcg" section that
// server/settings.go's Settings.apply knows. The extension's own settings
// (jcg.server.*, jcg.trace.*) are not sent, or the server would report them as
// unknown. A unit test checks this list against settings.go and package.json.

export const SECTION = 'jcg';

export const SERVER_KEYS = [
  'level',
  'algorithm',
  'classPath',
  'libraries',
  'sourceRoots',
  'jdkHome',
  'noJdk',
  'release',
  'mainClasses',
  'entryPoints',
  'libraryMode',
  'env',
  'diagnosticSeverity',
  'nativeDiagnosticSeverity',
  'specFile',
  'reflectionLogs',
  'hoverTargets',
  'maxCallHierarchyItems',
  'buildTool',
  'unreachable',
  'codeLens',
] as const;

/**
 * SHOW_CALLERS is the command of the server's caller lenses (server/codelens.go's
 * CommandShowCallers): the extension opens the incoming calls of the method at a
 * position. It is not in the command palette: it takes the lens's arguments.
 */
export const SHOW_CALLERS = 'jcg.showCallersAt';

/**
 * EXPLAIN_CALL is the command of the server's "Why this call has N targets" code
 * action (server/command.go's CommandExplainCallAt): the extension asks the
 * server's jcg.explainCall for the call at a position and shows its Markdown. It
 * is not in the command palette: it takes the action's arguments.
 */
export const EXPLAIN_CALL = 'jcg.explainCallAt';

/**
 * TRUST_KEY carries VS Code's workspace trust in the initialization options; it is
 * not a setting (a workspace's settings could set it), and TRUST_METHOD is the
 * notification that tells the server when the user grants trust.
 */
export const TRUST_KEY = 'workspaceTrusted';
export const TRUST_METHOD = 'jcg/workspaceTrust';

/** EXTENSION_KEYS are the settings the extension itself reads. */
export const EXTENSION_KEYS = ['server.path', 'trace.server'] as const;

/**
 * serverSettings keeps the keys the server knows of a "jcg" configuration value
 * (a plain object, or VS Code's WorkspaceConfiguration through get).
 */
export function serverSettings(get: (key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of SERVER_KEYS) {
    const v = get(k);
    if (v !== undefined) {
      out[k] = v;
    }
  }
  return out;
}

/** serverSettingsOf filters a raw configuration answer (null stays null). */
export function serverSettingsOf(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return raw;
  }
  const obj = raw as Record<string, unknown>;
  return serverSettings((k) => obj[k]);
}
