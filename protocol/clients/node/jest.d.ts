// Types for @authbridge/client/jest (jest.cjs).
import type { Bridge, Flavor, NativeEventEmitterLike, NativeModulesShape, SpawnOptions, TurboModuleRegistryLike } from './index';

/** The parts of Jest's `jest` object these helpers use (so no @jest/globals types are needed). */
export interface JestLike {
  fn<T extends (...args: any[]) => any>(implementation?: T): T;
  useFakeTimers(config?: { now?: number | Date; doNotFake?: string[]; advanceTimers?: boolean | number }): unknown;
  setSystemTime(now?: number | Date): void;
}

export interface ReactNativeMock {
  NativeModules: NativeModulesShape;
  NativeEventEmitter: new (nativeModule?: unknown) => NativeEventEmitterLike;
  Platform: { OS: 'ios' | 'android'; select<T>(choices: { ios?: T; android?: T; default?: T }): T | undefined };
  /** get('RNPingJourney' | 'RNPingOidc' | 'RNPingStorage'): the same objects as NativeModules.RNPing*Classic. */
  TurboModuleRegistry: TurboModuleRegistryLike;
  [other: string]: unknown;
}

export function setupAuthBridge(options?: SpawnOptions): { bridge: () => Bridge; respawn: (overrides?: SpawnOptions) => Promise<Bridge> };
export function startAuthBridge(options?: SpawnOptions): Promise<Bridge>;
export function stopAuthBridge(): Promise<void>;
export function respawn(overrides?: SpawnOptions): Promise<Bridge>;
export function bridge(): Bridge;
export function reactNativeMock(options?: { flavor?: Extract<Flavor, 'rn-ios' | 'rn-android'>; jest?: JestLike; extra?: Record<string, unknown> }): ReactNativeMock;
export function useDaemonClock(jest: JestLike, fakeTimers?: { doNotFake?: string[]; advanceTimers?: boolean | number }): Promise<number>;
export function syncClock(jest: JestLike): Promise<number>;
export function advanceClock(jest: JestLike, seconds: number): Promise<number>;

declare global {
  /** This test file's daemon, set by setupAuthBridge / startAuthBridge / respawn. */
  // eslint-disable-next-line no-var
  var authbridge: Bridge;
}
