// What the server's jcg/status notification says (server/rebuild.go statusParams),
// and how the status bar and the level picker present it. Nothing here imports
// vscode, so the unit tests run it under plain Node.

import { LEVELS, Level, levelOf } from './levels';

export const STATUS_METHOD = 'jcg/status';

export interface ServerStatus {
  /**
   * interim: an edit's diagnostics from CHA's graph updated in place, while the
   * configured algorithm (TFA by default) analyses anew; a ready status follows.
   */
  state: 'ready' | 'interim' | 'failed' | 'cancelled';
  snapshot?: number;
  reason: string;
  level?: string;
  message?: string;
  unresolved?: number;
  /** Of the unresolved sites, those with a value from a source the level does not license. */
  unresolvedBeyond?: number;
  unresolvedByLevel?: Record<string, number>;
  specFile?: string;
  specEntries?: number;
  specProblems?: string[];
  tookMs?: number;
  /** Classes the reachable code refers to that are on no class path. */
  missingClasses?: number;
  /** How the builds' dependencies were resolved (Maven, Gradle). */
  build?: string;
}

export interface StatusBarView {
  text: string;
  tooltip: string;
  error: boolean;
}

/**
 * nextStatus is the status to show after st arrives: an interim status counts the
 * edited level only, so the counts of the other levels stay those of the last one.
 */
export function nextStatus(prev: ServerStatus | undefined, st: ServerStatus): ServerStatus {
  if (st.state === 'interim' && st.unresolvedByLevel === undefined) {
    return { ...st, unresolvedByLevel: prev?.unresolvedByLevel };
  }
  return st;
}

/** statusBarView renders the latest status (undefined: the first build runs). */
export function statusBarView(st: ServerStatus | undefined, busy: boolean): StatusBarView {
  const spin = busy ? '$(sync~spin) ' : '';
  if (st === undefined) {
    return { text: '$(sync~spin) JCG: analysing…', tooltip: 'jcg-lsp is indexing and analysing the workspace', error: false };
  }
  if (st.state === 'failed') {
    return {
      text: `${spin}$(error) JCG: analysis failed`,
      tooltip: `${st.message ?? 'the build failed'}\nClick to choose another assumption level.`,
      error: true,
    };
  }
  const level = levelOf(st.level);
  const title = level?.title ?? st.level ?? '?';
  const n = st.unresolved ?? 0;
  const sites = n === 1 ? '1 unresolved site' : `${n} unresolved sites`;
  const beyond = st.unresolvedBeyond ?? 0;
  const lines = [
    `Assumption level ${level ? `${level.n} ${level.title}` : title}: ${level?.description ?? ''}`.trim(),
    st.message ?? '',
    beyond > 0
      ? `${beyond} of the ${sites} take a value from a source ${title} does not license (a public parameter, the environment, a collection, …): a specification entry resolves them (quick fix on the diagnostic).`
      : '',
    st.build ? `Build: ${st.build}` : '',
    (st.missingClasses ?? 0) > 0
      ? `${st.missingClasses ?? 0} classes the reachable code refers to are on no class path: the graph ends there (JCG: Show Class Path names them and the dependencies that should provide them).`
      : '',
    st.specFile ? `Specification: ${st.specEntries ?? 0} entries in ${st.specFile}` : '',
    ...(st.specProblems ?? []).slice(0, 5).map((p) => `Specification problem: ${p}`),
    'Click to select the assumption level.',
  ];
  return {
    text: `${spin}$(type-hierarchy) ${title} · ${sites}${st.state === 'interim' ? ' (CHA)' : ''}`,
    tooltip: lines.filter((l) => l !== '').join('\n'),
    error: false,
  };
}

export interface LevelPick {
  level: Level;
  label: string;
  description: string;
  detail: string;
  current: boolean;
}

/** levelPicks lists the levels for the picker, with the counts known so far. */
export function levelPicks(st: ServerStatus | undefined): LevelPick[] {
  const counts = st?.unresolvedByLevel ?? {};
  return LEVELS.map((level) => {
    const current = st?.level === level.name;
    const n = counts[level.name];
    const parts: string[] = [];
    if (current) {
      parts.push('current');
    }
    if (n !== undefined) {
      parts.push(n === 1 ? '1 unresolved site' : `${n} unresolved sites`);
    }
    return {
      level,
      label: `${level.n} ${level.title}`,
      description: parts.join(' · '),
      detail: level.description,
      current,
    };
  });
}
