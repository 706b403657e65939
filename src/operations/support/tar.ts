import { OmniposError } from '../../core/index.js';

/** One file of an archive. */
export interface TarFile {
  /** A relative path, ASCII, at most 100 bytes. */
  name: string;
  data: string | Uint8Array;
  /** Modification time (default: now). */
  mtime?: Date;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  // `width - 1` octal digits and a NUL, as POSIX ustar writes numeric fields.
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (
    !/^[\x20-\x7e]+$/.test(name) ||
    Buffer.byteLength(name) > 100 ||
    name.startsWith('/') ||
    name.split('/').includes('..')
  ) {
    throw new OmniposError(
      'INVALID_ARGUMENT',
      `tar: ${JSON.stringify(name)}: a relative ASCII name of at most 100 bytes`,
      { name },
    );
  }
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 100, 'ascii');
  h.write(octal(0o644, 8), 100, 'ascii'); // mode
  h.write(octal(0, 8), 108, 'ascii'); // uid
  h.write(octal(0, 8), 116, 'ascii'); // gid
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.max(0, Math.floor(mtime.getTime() / 1000)), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // checksum counted as spaces
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write('omnipos', 265, 'ascii'); // uname
  h.write('omnipos', 297, 'ascii'); // gname
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/**
 * A POSIX ustar archive of `files` (regular files only, names up to 100 bytes): each file is a
 * 512-byte header and its data padded to 512, and two zero blocks end it. `tar xf` reads it.
 */
export function tarArchive(files: readonly TarFile[]): Buffer {
  const parts: Buffer[] = [];
  const now = new Date();
  for (const f of files) {
    const data = typeof f.data === 'string' ? Buffer.from(f.data, 'utf8') : Buffer.from(f.data);
    if (data.length > 0o77777777777)
      throw new OmniposError('INVALID_ARGUMENT', `tar: ${f.name}: larger than 8 GiB`, { name: f.name });
    parts.push(
      header(f.name, data.length, f.mtime ?? now),
      data,
      Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK, 0),
    );
  }
  parts.push(Buffer.alloc(2 * BLOCK, 0));
  return Buffer.concat(parts);
}

/** Reads back what `tarArchive` wrote (regular files): for tests and `support bundle --list`. */
export function untar(archive: Uint8Array): { name: string; data: Buffer }[] {
  const buf = Buffer.from(archive);
  const out: { name: string; data: Buffer }[] = [];
  let at = 0;
  while (at + BLOCK <= buf.length) {
    const h = buf.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString('ascii').replace(/\0.*$/s, '');
    const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8);
    if (!Number.isSafeInteger(size) || at + BLOCK + size > buf.length)
      throw new OmniposError(
        'INVALID_ARGUMENT',
        `tar: entry ${JSON.stringify(name)} at ${at}: size ${size} runs past the end`,
        { at },
      );
    out.push({ name, data: buf.subarray(at + BLOCK, at + BLOCK + size) });
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return out;
}
