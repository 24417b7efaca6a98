// The journeys file schema against the files this repository ships, and against mistakes the
// daemon's loader refuses (so the schema and the loader do not drift apart silently).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from './validate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(readFileSync(join(here, 'journeys.schema.json'), 'utf8'));
const shipped = ['../transcripts/custom-journeys.json', '../../docs/examples/journeys.json'];

for (const file of shipped) {
  test(`${file} matches journeys.schema.json`, () => {
    assert.deepEqual(validate(schema, JSON.parse(readFileSync(join(here, file), 'utf8'))), []);
  });
}

test('the schema refuses what the loader refuses', () => {
  const journey = (node) => ({ name: 'J', entry: 'a', nodes: { a: node } });
  const refused = [
    journey({ type: 'warp' }),
    journey({ type: 'success', outcome: {} }),
    journey({ type: 'page', callbacks: [] }),
    journey({ type: 'page', callbacks: [{ type: 'NameCallbak' }] }),
    journey({ type: 'retryLimit', retryLimit: 0 }),
    journey({ type: 'otpGenerate', delivery: 'pigeon' }),
    { name: 'J', entry: 'a', nodes: { a: { type: 'success' } }, tiemout: 5 },
    { journeys: [] },
  ];
  for (const value of refused) assert.notDeepEqual(validate(schema, value), [], JSON.stringify(value));
  assert.deepEqual(validate(schema, [journey({ type: 'success', _comment: 'ok' })]), []);
});
