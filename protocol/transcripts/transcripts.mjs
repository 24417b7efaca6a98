// The golden transcripts and how to run one. A transcript is NAME.in.jsonl (what the host sends)
// and NAME.out.jsonl (every byte the daemon writes to stdout), run with `--seed 7 --clock virtual`
// plus the words of NAME.args. A transcript in parts, NAME.1.in.jsonl, NAME.2.in.jsonl…, is one
// daemon per part, run in order over the same state directory: `{stateDir}` in NAME.args is
// replaced by a fresh temporary directory for the whole group, and `{here}` by this folder (for
// files a transcript loads, such as `--journeys {here}/custom-journeys.json`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const binary = process.env.AUTHBRIDGE_BIN ?? join(here, '..', '..', '.build', 'debug', 'authbridge');
export const defaultArgs = ['--seed', '7', '--clock', 'virtual'];

/** [{ name, parts: [partName…] }] in name order; a part's files are `${part}.in.jsonl`/`.out.jsonl`. */
export function listTranscripts() {
  const groups = new Map();
  for (const file of readdirSync(here).filter((f) => f.endsWith('.in.jsonl')).sort()) {
    const part = file.slice(0, -'.in.jsonl'.length);
    const name = part.replace(/\.\d+$/, '');
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(part);
  }
  return [...groups].map(([name, parts]) => ({
    name,
    parts: parts.sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop())),
  }));
}

/** Runs every part of a transcript; returns [{ part, status, stdout (Buffer), stderr }]. */
export function runTranscript({ name, parts }) {
  const argsFile = join(here, `${name}.args`);
  const words = existsSync(argsFile) ? readFileSync(argsFile, 'utf8').trim().split(/\s+/) : [];
  const stateDir = words.includes('{stateDir}') ? mkdtempSync(join(tmpdir(), 'authbridge-transcript-')) : null;
  try {
    const args = [...defaultArgs, ...words.map((w) => (w === '{stateDir}' ? stateDir : w.replace('{here}', here)))];
    return parts.map((part) => {
      const run = spawnSync(binary, args, { input: readFileSync(join(here, `${part}.in.jsonl`)) });
      return { part, status: run.status, stdout: run.stdout, stderr: run.stderr.toString('utf8') };
    });
  } finally {
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}
