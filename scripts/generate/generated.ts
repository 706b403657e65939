/** What a generated file is: its path, what it is made from, and how to make it from the tree as it is. */
export interface Generated {
  /** Repository-relative path of the committed file. */
  readonly file: string;
  /** The source it is made from (for the reader of a stale file). */
  readonly from: string;
  /** The file's whole text as it should be; `current` is its text on disk (for a section of a hand-written file). */
  render(current: string): string | Promise<string>;
}

/** A JSON document as every generated JSON file of the repository holds it. */
export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * `current` with the text from `begin` to `end` (both markers included) replaced by `section`, which
 * starts with `begin` and ends with `end`. Throws when the markers are missing (a hand edit removed them).
 */
export function replaceSection(file: string, current: string, begin: string, end: string, section: string): string {
  const at = current.indexOf(begin);
  const stop = current.indexOf(end, at);
  if (at < 0 || stop < 0) throw new Error(`${file} lacks its markers ${begin} … ${end}`);
  return current.slice(0, at) + section + current.slice(stop + end.length);
}
