import type { z } from 'zod';

/** One thing wrong with the configuration, named by its key path (e.g. `acquirer.queryUrl`). */
export interface ConfigProblem {
  path: string;
  message: string;
}

export function formatProblem(p: ConfigProblem): string {
  return `${p.path}: ${p.message}`;
}

export function pathToString(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out === '' ? '(root)' : out;
}

export function problemsFromZod(error: z.ZodError): ConfigProblem[] {
  return error.issues
    .map((issue) => {
      const base = pathToString(issue.path);
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((k) => ({ path: base === '(root)' ? k : `${base}.${k}`, message: 'unknown key' }));
      }
      return [{ path: base, message: issue.message }];
    })
    .flat();
}
