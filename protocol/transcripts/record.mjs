// `make transcripts`: re-records every NAME.out.jsonl from NAME.in.jsonl, and every
// NAME.out.http from NAME.in.http. Review the diff before committing it: a recorded output is a
// claim about behaviour.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listHTTPTranscripts, runHTTPTranscript } from './http-transcripts.mjs';
import { here, listTranscripts, runTranscript } from './transcripts.mjs';

function report(part, run) {
  if (run.status !== 0) {
    console.error(`${part}: exit status ${run.status}\n${run.stderr}`);
    process.exitCode = 1;
  }
}

for (const transcript of listTranscripts()) {
  for (const run of runTranscript(transcript)) {
    report(run.part, run);
    writeFileSync(join(here, `${run.part}.out.jsonl`), run.stdout);
    console.log(`recorded ${run.part}.out.jsonl`);
  }
}

for (const name of listHTTPTranscripts()) {
  const run = await runHTTPTranscript(name);
  report(name, run);
  writeFileSync(join(here, `${name}.out.http`), run.output);
  console.log(`recorded ${name}.out.http`);
}
