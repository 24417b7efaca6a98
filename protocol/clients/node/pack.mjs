#!/usr/bin/env node
// Packs the Node client the way npm ships native binaries (esbuild's layout): the main package
// `@authbridge/client` (JavaScript only; its optionalDependencies name one package per platform at
// the same version) and, given a binary, the platform package `@authbridge/client-<platform>-<arch>`
// (package.json with `os`/`cpu`, README.md, bin/authbridge). npm installs only the platform package
// whose `os`/`cpu` match the machine; the client finds its binary with require.resolve.
//
//   node pack.mjs --out DIR [--binary PATH [--platform linux-x64]] [--no-main]
//
// `make pack` calls it with the static release binary; the release workflow packs every platform's
// binary with --platform; the tests pack the debug build. Prints the tarballs' paths, one a line.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { PLATFORMS, platformPackage } = createRequire(import.meta.url)('./index.cjs');

function fail(message) {
  process.stderr.write(`pack.mjs: ${message}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      out: { type: 'string' },
      binary: { type: 'string' },
      platform: { type: 'string', default: `${process.platform}-${process.arch}` },
      'no-main': { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  fail(`${error.message}\nusage: node pack.mjs --out DIR [--binary PATH [--platform ${PLATFORMS.join('|')}]] [--no-main]`);
}
if (!values.out) fail('--out DIR is required: where the tarballs go');
if (!PLATFORMS.includes(values.platform)) fail(`--platform ${values.platform}: the platforms are ${PLATFORMS.join(', ')}`);
if (values['no-main'] && !values.binary) fail('--no-main without --binary packs nothing');
if (values.binary && !existsSync(values.binary)) fail(`--binary ${values.binary}: no such file (make release builds .build-release/release/authbridge)`);

/**
 * The platform an executable is for, from its header (ELF or 64-bit Mach-O), so that a binary
 * packed under the wrong name (an artifact mixed up in the release workflow) stops here.
 */
function platformOf(path) {
  const head = readFileSync(path).subarray(0, 20);
  if (head.length < 20) return undefined;
  if (head.readUInt32BE(0) === 0x7f454c46) {
    const machine = { 0x3e: 'x64', 0xb7: 'arm64' }[head.readUInt16LE(18)];
    return machine && `linux-${machine}`;
  }
  if (head.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = { 0x01000007: 'x64', 0x0100000c: 'arm64' }[head.readUInt32LE(4)];
    return cpu && `darwin-${cpu}`;
  }
  return undefined;
}
if (values.binary && platformOf(values.binary) !== values.platform) {
  fail(`--binary ${values.binary} is ${platformOf(values.binary) ? `a ${platformOf(values.binary)} executable` : 'no executable pack.mjs knows'}, not ${values.platform}`);
}

const main = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
// The main package must name every platform package at its own version, or npm would install a
// binary from another release (or none).
const wanted = Object.fromEntries(PLATFORMS.map((p) => [platformPackage(...p.split('-')), main.version]).sort());
const listed = Object.fromEntries(Object.entries(main.optionalDependencies ?? {}).sort());
if (JSON.stringify(listed) !== JSON.stringify(wanted)) {
  fail(`package.json's optionalDependencies must be exactly ${JSON.stringify(wanted)}; they are ${JSON.stringify(listed)}`);
}

const out = resolve(values.out);
mkdirSync(out, { recursive: true });
const staging = mkdtempSync(join(tmpdir(), 'authbridge-pack-'));

function npmPack(dir) {
  const run = spawnSync(process.env.NPM || 'npm', ['pack', '--offline', '--silent', '--json', '--pack-destination', out], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) fail(`npm pack in ${dir} failed (${run.status}):\n${run.stderr}`);
  return join(out, JSON.parse(run.stdout)[0].filename);
}

try {
  const tarballs = [];
  if (!values['no-main']) {
    const dir = join(staging, 'main');
    for (const file of ['package.json', ...main.files]) {
      const from = join(here, file);
      if (file.endsWith('/')) {
        // bin/: the launcher only.
        mkdirSync(join(dir, file), { recursive: true });
        copyFileSync(join(from, 'authbridge.cjs'), join(dir, file, 'authbridge.cjs'));
      } else {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        copyFileSync(from, join(dir, file));
      }
    }
    tarballs.push(npmPack(dir));
  }
  if (values.binary) {
    const [os, cpu] = values.platform.split('-');
    const name = platformPackage(os, cpu);
    const dir = join(staging, 'platform');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    copyFileSync(values.binary, join(dir, 'bin', 'authbridge'));
    chmodSync(join(dir, 'bin', 'authbridge'), 0o755);
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({
      name,
      version: main.version,
      description: `The authbridge daemon for ${values.platform}, installed by @authbridge/client as an optional dependency.`,
      os: [os],
      cpu: [cpu],
      files: ['bin/authbridge', 'README.md'],
      // Yarn PnP: a binary must be on disk to be run.
      preferUnplugged: true,
      engines: main.engines,
    }, null, 2)}\n`);
    writeFileSync(join(dir, 'README.md'), `# ${name}

The \`authbridge\` daemon for ${values.platform} (\`bin/authbridge\`). Do not install it on its own: it is an
optional dependency of [\`@authbridge/client\`](https://www.npmjs.com/package/@authbridge/client), and npm
installs the one matching the machine's \`os\` and \`cpu\`. The client runs it when neither
\`AUTHBRIDGE_BIN\` nor an \`authbridge\` on \`PATH\` names another.
`);
    tarballs.push(npmPack(dir));
  }
  process.stdout.write(tarballs.map((t) => `${t}\n`).join(''));
} finally {
  rmSync(staging, { recursive: true, force: true });
}
