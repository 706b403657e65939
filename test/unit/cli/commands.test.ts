import { describe, expect, it } from 'vitest';
import { COMMANDS as ENTRIES } from '../../../src/cli/commands.js';
import { ERROR_CODES } from '../../../src/core/errors/codes.js';
import { runCliCaptured as cli } from '../../helpers/cli.js';

/** Every command's module, loaded (the table in commands.ts imports each only when it runs). */
const COMMANDS = await Promise.all(ENTRIES.map(async (e) => ({ ...(await e.load()), entry: e })));

/** Commands whose output a machine reads (a script, the technician's tools): each takes --json. */
const MACHINE_READ = [
  'queue list',
  'pinpad info',
  'pinpad ports',
  'printer status',
  'tables show',
  'tables bin',
  'init',
  'sale',
  'diag',
  'register merchant',
  'register terminal',
  'sandbox credentials',
];

describe('every omnipos command', () => {
  it.each(COMMANDS.map((c) => [c.path.join(' '), c] as const))(
    '%s: a summary, a usage naming it, an example that runs it, --help printing them',
    async (name, c) => {
      expect(c.summary.trim().length, 'summary').toBeGreaterThan(10);
      expect(c.summary.length, 'summary fits the --help table').toBeLessThanOrEqual(110);
      expect(c.usage.startsWith(`omnipos ${name}`), 'usage starts with the command').toBe(true);
      const example = /\nExamples?:\n((?: {2}.*\n?)+)/.exec(c.usage);
      expect(example, 'an Example: section').not.toBeNull();
      const lines = example![1]!.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      expect(
        lines.some((l) => l.includes(`omnipos ${name}`)),
        'an example runs the command',
      ).toBe(true);
      const help = await cli([...c.path, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toBe(`${c.usage}\n`);
      expect(help.err).toBe('');
    },
  );

  it('the table the help reads without loading a module says what each module says (path and summary)', () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(48);
    for (const c of COMMANDS)
      expect({ path: c.entry.path, summary: c.entry.summary }).toEqual({ path: c.path, summary: c.summary });
  });

  it('no two commands share a path, and the top-level help lists every one with its summary and the exit codes', async () => {
    const names = COMMANDS.map((c) => c.path.join(' '));
    expect(new Set(names).size).toBe(names.length);
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    for (const c of COMMANDS) expect(top.out).toContain(`  ${c.path.join(' ')}`);
    for (const c of COMMANDS) expect(top.out).toContain(c.summary);
    expect(top.out).toMatch(/Exit codes.*\n.*0 done.*2 the input or configuration is wrong/);
  });

  it('the exit codes the catalogue gives are the ones the help documents (0-4)', () => {
    const exits = new Set(Object.values(ERROR_CODES).map((c) => c.exit));
    for (const e of exits) expect([1, 2, 3, 4]).toContain(e);
  });

  it.each(MACHINE_READ)('%s takes --json', (name) => {
    const c = COMMANDS.find((x) => x.path.join(' ') === name);
    expect(c, name).toBeDefined();
    expect(c!.usage.split('\n')[0]).toContain('--json');
  });
});

describe('the operations guide (docs/operations.md)', () => {
  it('lists every command once, in "The omnipos command"', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync('docs/operations.md', 'utf8');
    const start = readme.indexOf('## The omnipos command');
    expect(start).toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
    const lines = section.split('\n').filter((l) => l.includes('omnipos '));
    for (const c of COMMANDS)
      expect(
        lines.some((l) => l.includes(c.path.join(' '))),
        c.path.join(' '),
      ).toBe(true);
  });
});
