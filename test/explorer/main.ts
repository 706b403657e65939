import { describe as tell, explore } from './search.js';
import { OPERATIONS } from './timelines.js';

/** `npm run explore [-- --deviations N] [--only NAME]`: every timeline up to the bound, per operation. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = (flag: string): string | undefined => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const maxDeviations = Number(at('--deviations') ?? 3);
  const only = at('--only');
  let broken = 0;
  for (const [name, run] of Object.entries(OPERATIONS)) {
    if (only && name !== only) continue;
    const t0 = performance.now();
    const r = await explore(run, { maxDeviations });
    const ms = Math.round(performance.now() - t0);
    console.log(
      `${name}: ${r.timelines} timelines (≤ ${maxDeviations} deviations, ${r.deduplicated} states seen again), ${r.counterexamples.length} invariants broken, ${ms} ms`,
    );
    for (const c of r.counterexamples) console.log(tell(c));
    broken += r.counterexamples.length;
  }
  console.log(`invariants broken: ${broken}`);
  process.exitCode = broken > 0 ? 1 : 0;
}

await main();
