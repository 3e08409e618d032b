#!/usr/bin/env node
import { detectCi } from './ci.js';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  progressBar: process.stderr.isTTY === true && !detectCi(process.env) && !process.env.CI,
  cwd: process.cwd(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
