// Child process for the interrupted-initialization test: installs a large generated version into
// DB and prints "chunk N" after each committed chunk, slowly enough for the parent to kill it.
import { InitializationStore, parseInitialization } from '../../../src/initialization/index.js';
import { MIGRATIONS, openDatabase } from '../../../src/store/index.js';
import { generateLargeTables } from '../../../tables/initialization/generate-large.js';

const [file, version, ranges] = process.argv.slice(2);
const tables = parseInitialization({
  ...generateLargeTables({ ranges: Number(ranges), seed: 7 }),
  InitializationVersion: Number(version),
});
const db = openDatabase({ file: file!, migrations: MIGRATIONS });
const store = new InitializationStore(db, { now: () => new Date() });
store.install(tables, {
  chunkRows: 2000,
  onChunk: (n) => {
    process.stdout.write(`chunk ${n}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  },
});
process.stdout.write('done\n');
