// The Jest example under real Jest, four workers, as an app runs it. Skipped, with a visible
// note, where Jest is not installed; jest-shim.test.mjs runs the same files either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findJest, missingJestNote } from './jest-env.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const jest = findJest();
if (!jest) process.stderr.write(`\nNOTE: ${missingJestNote}\n\n`);

test('the Jest example, its TypeScript spec included, passes under real Jest with four workers', { skip: jest ? false : missingJestNote }, () => {
  const out = mkdtempSync(join(tmpdir(), 'authbridge-jest-'));
  try {
    const report = join(out, 'report.json');
    const run = spawnSync(jest.command, ['--ci', '--config', join(here, 'jest.config.js'), '--maxWorkers=4', '--json', '--outputFile', report],
      { env: jest.env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, `jest failed:\n${run.stderr}`);
    const result = JSON.parse(readFileSync(report, 'utf8'));
    assert.equal(result.numFailedTests, 0);
    assert.equal(result.numPassedTests, 10);
    assert.equal(result.numTotalTestSuites, 3, 'two JavaScript specs and a TypeScript one');
    assert.doesNotMatch(run.stderr, /did not exit|open handle|failed to exit gracefully/i);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
