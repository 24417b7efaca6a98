// Replays every golden transcript and compares stdout with NAME.out.jsonl byte for byte.
// `make transcripts` re-records the outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { here, listTranscripts, runTranscript } from './transcripts.mjs';

const transcripts = listTranscripts();

test('there are transcripts to replay', () => {
  assert.ok(transcripts.length >= 14, `found ${transcripts.length}`);
});

for (const transcript of transcripts) {
  test(`transcript ${transcript.name} replays byte for byte`, () => {
    for (const run of runTranscript(transcript)) {
      assert.equal(run.status, 0, `${run.part}: exit status; stderr: ${run.stderr}`);
      const expected = readFileSync(join(here, `${run.part}.out.jsonl`));
      const actualLines = run.stdout.toString('utf8').split('\n');
      const expectedLines = expected.toString('utf8').split('\n');
      for (let i = 0; i < Math.max(actualLines.length, expectedLines.length); i++) {
        assert.equal(actualLines[i], expectedLines[i], `${run.part}.out.jsonl line ${i + 1} differs`);
      }
      assert.ok(run.stdout.equals(expected), `${run.part}: stdout bytes differ`);
    }
  });
}
