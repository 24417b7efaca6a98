// The repository stands on its own: every repository file a doc, comment, README or protocol
// file names exists, and nothing cites notes that live outside the repository. A fact about AM
// or an SDK cites its public source (an AM documentation page, a path in a public repository)
// instead. What counts as a repository path is deliberately narrow, so a path quoted from
// another repository (`packages/oidc/ios/…`, `FRAuth/FRAuth/…`) is never taken for one of ours:
//   - a token that starts with one of our top-level folders (`Sources/`, `Tests/`, `docs/`,
//     `protocol/`, `.ci/`), not preceded by a path character, resolved from the root;
//   - a Markdown link target that is not a URL, resolved from the linking file;
//   - a bare lowercase `name.md`, which must be one of docs/ (or beside the naming file).
// Paths with a placeholder (`…`, `*`, `<name>`, `{a,b}`, `${x}`) are patterns, not names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const topLevel = ['Sources', 'Tests', 'docs', 'protocol', '.ci'];
const scanned = /\.(swift|c|h|md|mjs|cjs|js|ts)$|^(Makefile|Package\.swift|run)$/;
const skippedDirs = new Set(['.git', 'node_modules', 'transcripts']);

// Notes outside the repository that a newcomer does not have.
const outsideNotes =
  /\b(DESIGN|bridge-api|am-protocol|am-nodes|am-mfa-and-pages|ping-rn-sdk|rpc-and-sync-anchors)\.md\b|shared\/reference\b/g;
const rootedPath = new RegExp(`(?<![\\w./\\-+…])(?:${topLevel.map((d) => d.replace('.', '\\.')).join('|')})/[^\\s\`'"()\\[\\],;:|]*`, 'g');
const markdownLink = /\]\(([^)\s]+)\)/g;
const bareMarkdown = /(?<![\w./\-…])([a-z][a-z0-9-]*\.md)\b/g;
const placeholder = /[…*<>{}$]/;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return skippedDirs.has(entry.name) || entry.name.startsWith('.build') ? [] : files(path);
    }
    return scanned.test(entry.name) ? [path] : [];
  });
}

function trimmed(path) {
  return path.replace(/#.*$/, '').replace(/[.,:;!?]+$/, '');
}

/// Every bad reference in `text`, the contents of `file` (a path relative to `base`).
export function badReferences(text, file, base = root) {
  const bad = [];
  const exists = (path) => existsSync(join(base, path));
  for (const match of text.matchAll(outsideNotes)) bad.push(`cites ${match[0]}, outside the repository`);
  for (const match of text.matchAll(rootedPath)) {
    const path = trimmed(match[0]);
    if (placeholder.test(path) || path.endsWith('/') && topLevel.includes(path.slice(0, -1))) continue;
    if (!exists(path)) bad.push(`names ${path}, which does not exist`);
  }
  if (file.endsWith('.md')) {
    for (const match of text.matchAll(markdownLink)) {
      const target = trimmed(match[1]);
      if (/^[a-z]+:/.test(target) || target === '' || placeholder.test(target)) continue;
      if (!exists(join(dirname(file), target))) bad.push(`links ${target}, which does not exist`);
    }
  }
  for (const match of text.matchAll(bareMarkdown)) {
    const name = match[1];
    if (outsideNotes.test(name)) { outsideNotes.lastIndex = 0; continue; }
    outsideNotes.lastIndex = 0;
    if (!exists(join('docs', name)) && !exists(join(dirname(file), name)) && !exists(name)) {
      bad.push(`names ${name}, which is not in docs/`);
    }
  }
  return bad;
}

test('every repository path that docs, comments and protocol files name exists; nothing cites notes outside the repository', () => {
  const problems = files(root).flatMap((path) => {
    const file = relative(root, path);
    if (file === 'docs/references.test.mjs') return []; // its own planted examples
    return badReferences(readFileSync(path, 'utf8'), file).map((problem) => `${file}: ${problem}`);
  });
  assert.deepEqual(problems, []);
});

test('the check catches each kind of bad reference and passes the good ones', () => {
  const good = [
    '/// (docs/flavors.md; protocol/README.md#framing, docs/journeys.md.)',
    '// Sources/Daemon/Options.swift and Tests/Fixtures/ and `protocol/clients/node/`',
    '// ForgeRock/ping-react-native-sdk `packages/oidc/ios/Tests/OidcClientFactoryTests.swift`',
    '// https://github.com/ForgeRock/sdk-sample-apps/blob/main/docs/README.md',
    '// Sources/…/X.swift, protocol/transcripts/<name>.json, Sources/EmbeddedAM/Journeys/Nodes/AM/AM+*',
    '[the contract](protocol/README.md) and [AM](https://docs.pingidentity.com/pingam/8/)',
  ].join('\n');
  assert.deepEqual(badReferences(good, 'README.md'), []);
  // The outside names are put together here, so this file does not itself cite them.
  const [nodes, design, shared, bridge] = [['am-nodes', '.md'], ['DESIGN', '.md'], ['shared', '/reference'], ['bridge-api', '.md']]
    .map(([name, rest]) => name + rest);
  const bad = [
    `/// (${nodes} §8)`,
    `// See ${design} §6 and ../${shared}/${bridge}`,
    '// docs/nowhere.md and Sources/Daemon/Missing.swift',
    'see [the guide](quickstart-old.md)',
    'as `journeys-old.md` says',
  ].join('\n');
  assert.deepEqual(badReferences(bad, 'docs/x.md'), [
    `cites ${nodes}, outside the repository`,
    `cites ${design}, outside the repository`,
    `cites ${shared}, outside the repository`,
    `cites ${bridge}, outside the repository`,
    'names docs/nowhere.md, which does not exist',
    'names Sources/Daemon/Missing.swift, which does not exist',
    'links quickstart-old.md, which does not exist',
    'names quickstart-old.md, which is not in docs/',
    'names journeys-old.md, which is not in docs/',
  ]);
});
