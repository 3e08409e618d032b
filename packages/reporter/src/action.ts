#!/usr/bin/env node
import { commandLineOf } from './action-inputs.js';
import { main } from './main.js';

// The GitHub Action's entry (action.yml): its inputs as tm-report's command line, in the job's
// workspace, printing as the CLI does in CI (a line per report, no progress bar).
try {
  const { argv, env } = commandLineOf(process.env);
  process.exitCode = await main(argv, {
    env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} catch (error) {
  process.stderr.write(`tm-report: error: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
