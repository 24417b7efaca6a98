// Replays every golden transcript and compares stdout with NAME.out.jsonl (HTTP ones: the
// scenario with its answers, with NAME.out.http) byte for byte. `make transcripts` re-records the
// outputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listHTTPTranscripts, runHTTPTranscript } from './http-transcripts.mjs';
import { here, listTranscripts, runTranscript } from './transcripts.mjs';

const transcripts = listTranscripts();

test('there are transcripts to replay', () => {
  assert.ok(transcripts.length >= 14, `found ${transcripts.length}`);
});

for (const transcript of transcripts) {
  test(`transcript ${transcript.name} replays byte for byte`, () => {
    for (const run of runTranscript(transcript)) {
      assert.equal(run.status, 0, `${run.part}: exit status; stderr: ${run.stderr}`);
      assertSameBytes(run.stdout, `${run.part}.out.jsonl`);
    }
  });
}

for (const name of listHTTPTranscripts()) {
  test(`HTTP transcript ${name} replays byte for byte`, async () => {
    const run = await runHTTPTranscript(name);
    assert.equal(run.status, 0, `${name}: exit status; stderr: ${run.stderr}`);
    assertSameBytes(Buffer.from(run.output, 'utf8'), `${name}.out.http`);
  });
}

/** The first differing line is named, so a failure reads as a diff would. */
function assertSameBytes(actual, file) {
  const expected = readFileSync(join(here, file));
  const actualLines = actual.toString('utf8').split('\n');
  const expectedLines = expected.toString('utf8').split('\n');
  for (let i = 0; i < Math.max(actualLines.length, expectedLines.length); i++) {
    assert.equal(actualLines[i], expectedLines[i], `${file} line ${i + 1} differs`);
  }
  assert.ok(actual.equals(expected), `${file}: bytes differ`);
}
