// Replays every golden transcript: feeds NAME.in.jsonl to the daemon in deterministic mode and
// compares stdout with NAME.out.jsonl byte for byte. `make transcripts` re-records the outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const binary = process.env.AUTHBRIDGE_BIN ?? join(here, '..', '..', '.build', 'debug', 'authbridge');
export const defaultArgs = ['--seed', '7', '--clock', 'virtual'];

const inputs = readdirSync(here).filter((name) => name.endsWith('.in.jsonl')).sort();

test('there are transcripts to replay', () => {
  assert.ok(inputs.length >= 6, `found ${inputs.length}`);
});

for (const input of inputs) {
  const name = input.slice(0, -'.in.jsonl'.length);
  test(`transcript ${name} replays byte for byte`, () => {
    const argsFile = join(here, `${name}.args`);
    const extra = existsSync(argsFile) ? readFileSync(argsFile, 'utf8').trim().split(/\s+/) : [];
    const run = spawnSync(binary, [...defaultArgs, ...extra], { input: readFileSync(join(here, input)) });
    assert.equal(run.status, 0, `exit status; stderr: ${run.stderr}`);
    const expected = readFileSync(join(here, `${name}.out.jsonl`));
    const actualLines = run.stdout.toString('utf8').split('\n');
    const expectedLines = expected.toString('utf8').split('\n');
    for (let i = 0; i < Math.max(actualLines.length, expectedLines.length); i++) {
      assert.equal(actualLines[i], expectedLines[i], `${name}.out.jsonl line ${i + 1} differs`);
    }
    assert.ok(run.stdout.equals(expected), 'stdout bytes differ');
  });
}
