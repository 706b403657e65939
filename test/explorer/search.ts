/**
 * The explorer's search: every timeline is a sequence of choices (which answer the host gives, whether
 * the terminal dies, when the close falls…), made at choice points while the real engine runs. A
 * timeline is replayed from nothing for each prefix of choices (real SQLite files, no snapshot of a
 * process), and the search is breadth-first on the number of deviations from the default choice
 * (option 0 of each point), so the first timeline found to break an invariant is a shortest one.
 * Equivalent states are explored once: a choice point whose state fingerprint was already branched
 * from is not branched again.
 */

/** One choice made: the point's label and the option taken. */
export interface Made {
  label: string;
  option: string;
  deviation: boolean;
}

/** What a run is given to make its choices with. */
export interface Chooser {
  /** Takes one of `options` (option 0 is the default); `fingerprint` names the state the choice is made in (asked only when it will branch). */
  choose<T extends string>(label: string, options: readonly T[], fingerprint: () => string): T;
  readonly made: readonly Made[];
}

/** A choice that only the default is taken at, past the prefix: the run records what it could have chosen. */
class Replay implements Chooser {
  readonly made: Made[] = [];
  readonly branches: { at: number; options: number; fingerprint: string }[] = [];
  #i = 0;

  /** `branching`: false at the depth bound, where no alternative will be tried. */
  constructor(
    readonly prefix: readonly number[],
    readonly branching: boolean,
  ) {}

  choose<T extends string>(label: string, options: readonly T[], fingerprint: () => string): T {
    const at = this.#i++;
    const pick = at < this.prefix.length ? (this.prefix[at] ?? 0) : 0;
    const taken = options[Math.min(pick, options.length - 1)] as T;
    if (this.branching && at >= this.prefix.length && options.length > 1)
      this.branches.push({ at, options: options.length, fingerprint: `${label}|${fingerprint()}` });
    this.made.push({ label, option: taken, deviation: pick !== 0 });
    return taken;
  }
}

/** What one timeline ended with: the invariants it broke (none: it holds). */
export interface Verdict {
  broken: { invariant: string; detail: string }[];
  /** The timeline told in steps, for a counterexample. */
  story: string[];
}

export interface SearchOptions {
  /** Choices off the default per timeline (the depth bound). */
  maxDeviations: number;
  /** Timelines at most (a safety bound on the full run). */
  maxTimelines?: number;
}

export interface Counterexample {
  invariant: string;
  detail: string;
  deviations: number;
  choices: Made[];
  story: string[];
}

export interface SearchResult {
  timelines: number;
  /** The shortest timeline found for each invariant broken. */
  counterexamples: Counterexample[];
  /** Choice points not branched again because their state had been branched from. */
  deduplicated: number;
  truncated: boolean;
}

/**
 * Breadth-first over deviations: all timelines with 0 deviations, then 1, … up to `maxDeviations`.
 * `run` plays one timeline with the chooser it is given and returns its verdict.
 */
export async function explore(
  run: (chooser: Chooser) => Promise<Verdict>,
  options: SearchOptions,
): Promise<SearchResult> {
  const seen = new Set<string>();
  const found = new Map<string, Counterexample>();
  let frontier: number[][] = [[]];
  let timelines = 0;
  let deduplicated = 0;
  let truncated = false;
  for (let depth = 0; depth <= options.maxDeviations && frontier.length > 0; depth++) {
    const next: number[][] = [];
    for (const prefix of frontier) {
      if (options.maxTimelines !== undefined && timelines >= options.maxTimelines) {
        truncated = true;
        break;
      }
      const chooser = new Replay(prefix, depth < options.maxDeviations);
      const verdict = await run(chooser);
      timelines++;
      for (const b of verdict.broken) {
        if (found.has(b.invariant)) continue;
        found.set(b.invariant, {
          invariant: b.invariant,
          detail: b.detail,
          deviations: depth,
          choices: chooser.made,
          story: verdict.story,
        });
      }
      if (depth === options.maxDeviations) continue;
      for (const br of chooser.branches) {
        if (seen.has(br.fingerprint)) {
          deduplicated++;
          continue;
        }
        seen.add(br.fingerprint);
        const base = chooser.made.slice(0, br.at).map((_, i) => (i < prefix.length ? (prefix[i] ?? 0) : 0));
        for (let o = 1; o < br.options; o++) next.push([...base, o]);
      }
    }
    frontier = next;
  }
  return { timelines, counterexamples: [...found.values()], deduplicated, truncated };
}

/** A counterexample as the explorer prints it: the invariant, then the choices off the default, then the story. */
export function describe(c: Counterexample): string {
  const lines = [`BROKEN ${c.invariant} (${c.deviations} deviation${c.deviations === 1 ? '' : 's'}): ${c.detail}`];
  lines.push('  choices off the default:');
  for (const m of c.choices.filter((x) => x.deviation)) lines.push(`    ${m.label} → ${m.option}`);
  lines.push('  timeline:');
  for (const s of squeeze(c.story)) lines.push(`    ${s}`);
  return lines.join('\n');
}

/** A story's steps with each run of a repeated block (the same retry again and again) told once. */
export function squeeze(story: readonly string[]): string[] {
  const text = (line: string | undefined): string => (line ?? '').slice(15);
  const out: string[] = [];
  let i = 0;
  while (i < story.length) {
    let squeezed = false;
    for (let k = 3; k >= 1 && !squeezed; k--) {
      const same = (at: number): boolean =>
        at + k <= story.length &&
        Array.from({ length: k }, (_, j) => text(story[at + j]) === text(story[i + j])).every(Boolean);
      let n = 1;
      while (same(i + n * k)) n++;
      if (n >= 3) {
        out.push(...story.slice(i, i + k));
        const last = story[i + n * k - 1] ?? '';
        out.push(
          `… the ${k === 1 ? 'same step' : `same ${k} steps`} ${n - 1} more times, the last at ${last.slice(0, 14)}`,
        );
        i += n * k;
        squeezed = true;
      }
    }
    if (!squeezed) out.push(story[i++] ?? '');
  }
  return out;
}
