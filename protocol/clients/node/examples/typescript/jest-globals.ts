// The Jest helpers with `jest` imported from @jest/globals. types.test.mjs type-checks it under
// `tsc --strict` where @jest/globals is installed.
import { jest } from '@jest/globals';
import { advanceClock, reactNativeMock, syncClock, useDaemonClock } from '@authbridge/client/jest';

export async function withImportedJest(): Promise<number> {
  const { NativeModules } = reactNativeMock({ flavor: 'rn-android', jest });
  void NativeModules.FRAuthSampleBridge.login;
  await useDaemonClock(jest, { doNotFake: ['setTimeout', 'nextTick'] });
  // @ts-expect-error not an API Jest's fake timers know
  await useDaemonClock(jest, { doNotFake: ['setTimout'] });
  await syncClock(jest);
  return advanceClock(jest, 60);
}
