// Finds a real Jest for the tests that run one, and the environment it needs: Debian's `jest`
// package (what .ci/run installs) on NodeSource's Node 20 needs Debian's module folders on
// NODE_PATH and .ci/jest-debian-node20.cjs preloaded. Returns null when there is no Jest.
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

export function findJest() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'jest');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    const real = realpathSync(candidate);
    const debian = real.startsWith('/usr/share/nodejs/');
    const env = { ...process.env };
    if (debian) {
      const folders = ['/usr/share/nodejs', '/usr/lib/nodejs', '/usr/lib/x86_64-linux-gnu/nodejs'].filter((d) => existsSync(d));
      env.NODE_PATH = [...folders, process.env.NODE_PATH].filter(Boolean).join(delimiter);
      env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${join(repo, '.ci', 'jest-debian-node20.cjs')}`.trim();
    }
    return { command: candidate, env, debian };
  }
  return null;
}

export const missingJestNote = 'real Jest is not installed (CI installs Debian\'s `jest` package: .ci/run); '
  + 'the example ran under the stand-in only (jest-shim.test.mjs)';
