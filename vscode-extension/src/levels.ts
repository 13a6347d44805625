// The assumption levels as the server names them (callgraph.Level's flag names),
// with the one-sentence descriptions the level picker and the Settings UI show.
// package.json's jcg.level enum lists the same names and descriptions (a unit test
// checks that they agree).

export interface Level {
  readonly n: number;
  readonly name: string; // the server's name: "correct-string"
  readonly title: string; // "Correct-String"
  readonly description: string;
}

export const LEVELS: readonly Level[] = [
  {
    n: 1,
    name: 'behaved-cls',
    title: 'Behaved-CLs',
    description:
      'Class loaders never change the meaning of a class name; every other dynamic feature gets the fully conservative set of targets.',
  },
  {
    n: 2,
    name: 'encap-respect',
    title: 'Encap-Respect',
    description:
      "Reflection and native code obey Java's access rules, so they reach only the members visible from the calling class.",
  },
  {
    n: 3,
    name: 'correct-cast',
    title: 'Correct-Cast',
    description:
      "A cast applied to a reflectively created object never fails, so the cast's type bounds what reflection may create.",
  },
  {
    n: 4,
    name: 'correct-string',
    title: 'Correct-String',
    description:
      'Strings reaching dynamic sites through private state are not forged, and every name a loading site receives is a class of the program.',
  },
  {
    n: 5,
    name: 'correct-env',
    title: 'Correct-Env',
    description:
      'System properties and environment variables at analysis time are those at run time: the graph holds only for the values set in jcg.env.',
  },
  {
    n: 6,
    name: 'correct-jdk',
    title: 'Correct-JDK',
    description:
      "The JDK behaves as its code, specification and configuration say, and its native methods do only what jcg-lsp's JDK model says: the JDK no longer reaches itself whole. Measured against real runs, not assumed.",
  },
];

/** levelOf finds a level by the server's name, its title or its number. */
export function levelOf(s: string | number | undefined): Level | undefined {
  if (s === undefined) {
    return undefined;
  }
  const t = String(s).trim().toLowerCase();
  return LEVELS.find((l) => l.name === t || l.title.toLowerCase() === t || String(l.n) === t);
}
