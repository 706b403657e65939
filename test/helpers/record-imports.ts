// Registers a module resolve hook that appends every file URL resolved to $RECORD_IMPORTS_LOG
// (one a line): the lazy-commands test reads which modules a command line loaded.
import { register } from 'node:module';

const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:') && process.env.RECORD_IMPORTS_LOG) appendFileSync(process.env.RECORD_IMPORTS_LOG, r.url + '\\n');
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
