/**
 * The engine's own time per sale, with the devices and the host answering at once: what is
 * left is the state machine, the journal's commits (WAL, synchronous=FULL: an fsync each) and
 * the outbox. Beside it, the journal's single commit against a raw write+fsync of the same
 * size in the same folder: the floor any durable journal pays.
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bench, describe } from 'vitest';
import { Journal, openTerminalDatabase } from '../../src/store/index.js';
import { instantTerminal } from '../helpers/instant-terminal.js';

const terminal = await instantTerminal();
const dir = mkdtempSync(path.join(tmpdir(), 'omnipos-fsync-'));
const db = openTerminalDatabase(dir);
const journal = new Journal(db);
const entry = journal.open({ kind: 'sale', merchantOrderId: '1', state: 's0', amount: 1, input: 'x', at: new Date() });
let k = 0;
const fd = openSync(path.join(dir, 'raw.bin'), 'a');
const record = Buffer.alloc(512, 1);

describe('a whole sale, devices and host answering at once', () => {
  bench(
    'engine sale (card, host, chip, receipt, confirmation delivered)',
    async () => {
      await terminal.sale();
    },
    { time: 3000 },
  );
});

describe('one durable journal step', () => {
  bench(
    'journal transition (SQLite WAL, synchronous=FULL)',
    () => {
      journal.transition(entry.id, { from: `s${k}`, to: `s${k + 1}`, input: 'bench', at: new Date() });
      k++;
    },
    { time: 2000 },
  );
  bench(
    'raw write + fsync of 512 bytes',
    () => {
      writeSync(fd, record);
      fsyncSync(fd);
    },
    { time: 2000 },
  );
});

process.on('exit', () => closeSync(fd));
