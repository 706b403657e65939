/**
 * The first key that an object of a JSON text holds twice, or undefined. `JSON.parse` keeps the
 * last (`{"amount":100,"amount":100000}` is 100000), while another reader of the same body (a log,
 * a proxy, an auditor) may read the first: a request body with a repeated key is refused. `text`
 * must be valid JSON (parse it first); the walk skips strings and tracks one key set per object.
 */
export function duplicateKey(text: string): string | undefined {
  const objects: Set<string>[] = [];
  /** Per open bracket: whether it is an object (its next string may be a key). */
  const kinds: boolean[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      if (expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        const keys = objects[objects.length - 1] as Set<string>;
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (ch === '{') {
      objects.push(new Set());
      kinds.push(true);
      expectKey = true;
    } else if (ch === '[') {
      kinds.push(false);
    } else if (ch === '}' || ch === ']') {
      if (kinds.pop() === true) objects.pop();
      expectKey = false;
    } else if (ch === ',') {
      expectKey = kinds[kinds.length - 1] === true;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i;
}
