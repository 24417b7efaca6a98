// `make transcripts`: re-records every NAME.out.jsonl from NAME.in.jsonl. Review the diff before
// committing it: a recorded output is a claim about behaviour.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { here, listTranscripts, runTranscript } from './transcripts.mjs';

for (const transcript of listTranscripts()) {
  for (const run of runTranscript(transcript)) {
    if (run.status !== 0) {
      console.error(`${run.part}: exit status ${run.status}\n${run.stderr}`);
      process.exitCode = 1;
    }
    writeFileSync(join(here, `${run.part}.out.jsonl`), run.stdout);
    console.log(`recorded ${run.part}.out.jsonl`);
  }
}
