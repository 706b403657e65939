import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Tests listen on port 0 and read the port back (test/README.md, the helpers): a literal port is one two test
 * files running at once can both ask for. This reads every test and helper outside test/unit (whose
 * config tests hold ports as values nothing listens on) and test/fixtures, and refuses a loopback
 * address with a literal port of 1024 or more (a listener the test starts, or one it tells the
 * daemon to start: the webservice 1.5 host takes its configured url's port) and a `listen()` on a
 * literal port. A port below 1024 (`OMNIPOS_API__PORT: '1'`: nothing listens there, on purpose) passes.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIPPED = new Set(['test/unit', 'test/fixtures']);

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return SKIPPED.has(rel) ? [] : sources(rel);
    return /\.(ts|js|mjs)$/.test(e.name) ? [rel] : [];
  });
}

/** The literal listening ports in `text`, as `line: match`. */
function literalPorts(text: string): string[] {
  const found: string[] = [];
  const patterns = [/(?:127\.0\.0\.1|localhost|\[::1\]):(\d{4,5})\b/g, /\.listen\(\s*(?:\{\s*port:\s*)?(\d{4,5})\b/g];
  text.split('\n').forEach((line, i) => {
    for (const p of patterns)
      for (const m of line.matchAll(p)) if (Number(m[1]) >= 1024) found.push(`${i + 1}: ${m[0]}`);
  });
  return found;
}

describe('no test listens on a fixed port', () => {
  it('the check finds what it refuses, and passes port 0 and a port below 1024', () => {
    // Built from parts, so that this file does not hold what it refuses.
    const fixed = ['18', '089'].join('');
    expect(literalPorts(`URL: \`http://127.0.0.1:${fixed}\${WS15_PATH}\`,`)).toEqual([`1: 127.0.0.1:${fixed}`]);
    expect(literalPorts(`server.listen(${fixed});\nserver.listen({ port: ${fixed} })`)).toHaveLength(2);
    expect(literalPorts("URL: `http://127.0.0.1:0/x`, OMNIPOS_API__PORT: '1', server.listen(0)")).toEqual([]);
  });

  it('every test and helper outside test/unit asks for port 0', () => {
    const fixed = sources('test').flatMap((f) =>
      literalPorts(readFileSync(path.join(ROOT, f), 'utf8')).map((hit) => `${f}:${hit}`),
    );
    expect(fixed, 'listen on port 0 and read the port back').toEqual([]);
  });
});
