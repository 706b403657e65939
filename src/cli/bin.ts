#!/usr/bin/env node
import { runCli } from './run.js';

const code = await runCli(process.argv.slice(2), {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
  tty: process.stdout.isTTY === true,
  columns: process.stdout.columns,
});
process.exitCode = code;
