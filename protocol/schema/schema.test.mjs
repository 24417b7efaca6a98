// Checks every request and response of the golden transcripts against the method's JSON Schema,
// so the schemas in this folder stay true to what the daemon does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from './validate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const transcripts = join(here, '..', 'transcripts');
const load = (name) => JSON.parse(readFileSync(join(here, name), 'utf8'));
const errorSchema = load('error.schema.json');

function parseLines(lines) {
  return lines.filter(Boolean).map((line) => {
    try { return JSON.parse(line); } catch { return undefined; }
  });
}

/** Checks the daemon's stdout lines against the schemas of the requests they answer. */
function checkMessages(requestLines, outputLines, args) {
  const flavor = args.match(/--flavor\s+(\S+)/)?.[1] ?? 'rn-ios';
  const bridge = args.match(/--bridge\s+(\S+)/)?.[1] ?? 'sample';
  const requests = new Map();
  for (const request of parseLines(requestLines)) {
    if (request && typeof request === 'object' && !Array.isArray(request) && 'id' in request && typeof request.method === 'string') {
      requests.set(request.id, request);
    }
  }
  let checked = 0;
  for (const message of parseLines(outputLines).flat()) {
    if ('error' in message) {
      assert.deepEqual(validate(errorSchema, message), [], JSON.stringify(message));
      continue;
    }
    if (!('id' in message)) {
      // An event: a notification whose params has the event's schema.
      assert.ok(existsSync(join(here, `${message.method}.params.schema.json`)), `unknown event ${message.method}`);
      assert.deepEqual(validate(load(`${message.method}.params.schema.json`), message.params), [], `${message.method} params`);
      checked += 1;
      continue;
    }
    const request = requests.get(message.id);
    assert.ok(request, `a result for an id that was not requested: ${message.id}`);
    // The bridge methods' schemas describe the sample rn-ios bridge; other flavors' and the
    // guide bridge's results are checked by their transcripts and tests (docs/flavors.md),
    // their errors and daemon methods here.
    const flavored = !request.method.includes('.') || request.method === 'emulator.resumeJourney';
    if ((flavor !== 'rn-ios' || bridge !== 'sample') && flavored) { checked += 1; continue; }
    const params = load(`${request.method}.params.schema.json`);
    const result = load(`${request.method}.result.schema.json`);
    assert.deepEqual(validate(params, request.params ?? (params.type === 'object' ? {} : [])), [], `${request.method} params`);
    assert.deepEqual(validate(result, message.result), [], `${request.method} result`);
    checked += 1;
  }
  return checked;
}

const argsOf = (name) => {
  const argsFile = join(transcripts, `${name.replace(/\.\d+$/, '')}.args`);
  return existsSync(argsFile) ? readFileSync(argsFile, 'utf8') : '';
};

for (const input of readdirSync(transcripts).filter((n) => n.endsWith('.in.jsonl')).sort()) {
  const name = input.slice(0, -'.in.jsonl'.length);
  test(`transcript ${name} matches the schemas`, () => {
    const requests = readFileSync(join(transcripts, input), 'utf8').split('\n');
    const output = readFileSync(join(transcripts, `${name}.out.jsonl`), 'utf8').split('\n');
    assert.ok(checkMessages(requests, output, argsOf(name)) > 0);
  });
}

// An HTTP transcript's stdio lines: `stdio> ` what was sent, `stdio< ` what the daemon wrote.
// A transcript that is HTTP only has none, and no test here.
for (const file of readdirSync(transcripts).filter((n) => n.endsWith('.out.http')).sort()) {
  const name = file.slice(0, -'.out.http'.length);
  const lines = readFileSync(join(transcripts, file), 'utf8').split('\n');
  const side = (prefix) => lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
  const [sent, written] = [side('stdio> '), side('stdio< ')];
  if (sent.length === 0 && written.length === 0) continue;
  test(`HTTP transcript ${name}'s stdio messages match the schemas`, () => {
    assert.ok(checkMessages(sent, written, argsOf(name)) > 0);
  });
}

test('the validator rejects what it should', () => {
  const schema = { type: 'object', required: ['a'], additionalProperties: false, properties: { a: { enum: [1] } } };
  assert.deepEqual(validate(schema, { a: 1 }), []);
  assert.notDeepEqual(validate(schema, { a: 2 }), []);
  assert.notDeepEqual(validate(schema, { a: 1, b: 2 }), []);
  assert.notDeepEqual(validate(schema, {}), []);
  assert.notDeepEqual(validate({ type: 'string', pattern: '^x' }, 'y'), []);
  assert.notDeepEqual(validate({ oneOf: [{ type: 'string' }, { type: 'object' }] }, 3), []);
  assert.notDeepEqual(validate({ type: 'array', maxItems: 0 }, [1]), []);
  assert.notDeepEqual(validate({ type: 'array', prefixItems: [{ type: 'string' }] }, [5]), []);
});
