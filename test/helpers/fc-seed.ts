/** The fast-check seed for this run: FC_SEED from the environment, or a fresh one; printed so a failure can be replayed. */
export function fcSeed(name: string): number {
  const fromEnv = process.env.FC_SEED;
  const seed = fromEnv ? Number(fromEnv) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  console.log(`[fast-check] ${name}: seed=${seed} (replay with FC_SEED=${seed})`);
  return seed;
}
