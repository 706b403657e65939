import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Forces a folder's entries (a rename, a removal) to the disk. */
export async function syncFolder(dir: string): Promise<void> {
  const fd = await open(dir, 'r');
  try {
    await fd.sync();
  } finally {
    await fd.close();
  }
}

/**
 * Writes a file whole or not at all, as the convention asks (a temporary name, then the rename
 * the PDV waits for): the bytes to `<name>.tmp` and to the disk, the rename, the folder to the disk.
 * A power cut leaves the old file or the new one, never half of one.
 */
export async function writeWhole(dir: string, name: string, bytes: Uint8Array): Promise<void> {
  const tmp = path.join(dir, `${name}.tmp`);
  const fd = await open(tmp, 'w', 0o644);
  try {
    await fd.writeFile(bytes);
    await fd.sync();
  } finally {
    await fd.close();
  }
  await rename(tmp, path.join(dir, name));
  await syncFolder(dir);
}

/** Moves a file within a folder and makes the move durable. */
export async function moveDurably(dir: string, from: string, to: string): Promise<void> {
  await rename(path.join(dir, from), path.join(dir, to));
  await syncFolder(dir);
}

/** Removes a file (absent is fine) and makes the removal durable. */
export async function removeDurably(dir: string, name: string): Promise<void> {
  await rm(path.join(dir, name), { force: true });
  await syncFolder(dir);
}

/**
 * Overwrites, in place, the value of field `key` in `file` (whose bytes were `bytes`) with spaces,
 * and forces it to the disk: the same inode, so every name of the file (the PDV's `IntPos.001`,
 * a link to it) reads blanks. The file stays a valid request whose field is empty.
 */
export async function blankField(file: string, bytes: Buffer, key: string): Promise<void> {
  const m = new RegExp(`(?:^|\\r\\n)${key} = ([^\\r\\n]*)`).exec(bytes.toString('latin1'));
  const value = m?.[1];
  if (!m || !value) return;
  const to = m.index + m[0].length;
  const from = to - value.length;
  const fd = await open(file, 'r+');
  try {
    await fd.write(Buffer.alloc(to - from, 0x20), 0, to - from, from);
    await fd.sync();
  } finally {
    await fd.close();
  }
}

/** The file's bytes, or undefined when it is not there. */
export async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * What the interface must remember across a crash that the journal does not hold for it: which
 * void a CNC's identification started (the void engine takes no idempotency key), one small file
 * per identification, written before the void starts.
 */
export class VoidLedger {
  constructor(private readonly dir: string) {}

  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** Records that identification `id` voids sale `saleId`, before the void starts. */
  async starting(id: string, saleId: number, at: string): Promise<void> {
    await writeWhole(this.dir, `cnc-${id}.json`, Buffer.from(JSON.stringify({ saleId, at })));
  }

  async get(id: string): Promise<{ saleId: number; at: string } | undefined> {
    const bytes = await readIfThere(path.join(this.dir, `cnc-${id}.json`));
    return bytes ? (JSON.parse(bytes.toString('utf8')) as { saleId: number; at: string }) : undefined;
  }
}
