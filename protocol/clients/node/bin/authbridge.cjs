#!/usr/bin/env node
// `npx authbridge …` / `node_modules/.bin/authbridge …`: runs the daemon the client would use
// ($AUTHBRIDGE_BIN, PATH, the platform package @authbridge/client-<platform>-<arch>, or the
// checkout's debug build) with the same arguments and the same stdin/stdout/stderr.
'use strict';
const { spawn } = require('node:child_process');
const { findBinary, binaryNotFoundHint } = require('../index.cjs');

const binary = findBinary();
if (binary === undefined) {
  process.stderr.write(`authbridge: no daemon binary found: ${binaryNotFoundHint()}\n`);
  process.exit(127);
}
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  process.stderr.write(`authbridge: cannot run ${binary}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(signal ? 128 : code));
