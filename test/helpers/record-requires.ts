// Appends every CommonJS file compiled (a package required, directly or through createRequire, as
// the lazily loaded ones are) to $RECORD_IMPORTS_LOG as a file URL, beside record-imports.ts's
// resolved ES modules: the lazy-daemon test reads which packages the daemon loaded before ready.
import { appendFileSync } from 'node:fs';
import Module from 'node:module';
import { pathToFileURL } from 'node:url';

type Compile = (content: string, filename: string) => unknown;
const proto = (Module as unknown as { prototype: { _compile: Compile } }).prototype;
const compile = proto._compile;
proto._compile = function (this: unknown, content: string, filename: string): unknown {
  if (process.env.RECORD_IMPORTS_LOG)
    appendFileSync(process.env.RECORD_IMPORTS_LOG, `${pathToFileURL(filename).href}\n`);
  return compile.call(this, content, filename);
};
