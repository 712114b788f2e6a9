#!/usr/bin/env node
import { main } from '../dist/src/cli/main.js';

// A reader that stops early (`kustomize-ts build | head -1`) closes the pipe: stop quietly,
// with the status of a process killed by SIGPIPE (as kubectl, 128 + 13).
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(141);
});

process.exitCode = await main(process.argv.slice(2));
