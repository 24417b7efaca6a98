// The Jest helpers with the global `jest` that @types/jest declares (a Jest setup without
// @jest/globals). types.test.mjs type-checks it under `tsc --strict` where @types/jest is installed.
import { advanceClock, reactNativeMock, syncClock, useDaemonClock } from '@authbridge/client/jest';

export async function withGlobalJest(): Promise<number> {
  const { NativeModules } = reactNativeMock({ flavor: 'rn-ios', jest });
  void NativeModules.FRAuthSampleBridge.login;
  await useDaemonClock(jest, { doNotFake: ['setTimeout', 'nextTick'] });
  // @ts-expect-error not an API Jest's fake timers know
  await useDaemonClock(jest, { doNotFake: ['setTimout'] });
  await syncClock(jest);
  return advanceClock(jest, 60);
}
