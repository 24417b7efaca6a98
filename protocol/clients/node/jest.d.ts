// Types for @authbridge/client/jest (jest.cjs).
import type { Bridge, Flavor, NativeEventEmitterLike, NativeModulesShape, SpawnOptions, TurboModuleRegistryLike } from './index';

/** The APIs Jest's modern fake timers can fake (`doNotFake` names some of them). */
export type FakeableAPI =
  | 'Date' | 'hrtime' | 'nextTick' | 'performance' | 'queueMicrotask' | 'requestAnimationFrame' | 'cancelAnimationFrame'
  | 'requestIdleCallback' | 'cancelIdleCallback' | 'setImmediate' | 'clearImmediate' | 'setInterval' | 'clearInterval'
  | 'setTimeout' | 'clearTimeout';

/** What the helpers pass to `jest.useFakeTimers`: a subset of Jest's modern fake-timers config. */
export interface FakeTimersOptions {
  now?: number | Date;
  doNotFake?: FakeableAPI[];
  advanceTimers?: boolean | number;
}

/**
 * The parts of Jest's `jest` object these helpers use, loose enough that both the global `jest`
 * of `@types/jest` and `import { jest } from '@jest/globals'` fit (no Jest types are needed here):
 * `fn`'s result is only handed back to you as the module's method, so it is not typed here.
 */
export interface JestLike {
  fn(implementation?: (...args: any[]) => any): unknown;
  useFakeTimers(config?: FakeTimersOptions): unknown;
  setSystemTime(now?: number | Date): void;
}

export interface ReactNativeMock {
  NativeModules: NativeModulesShape;
  NativeEventEmitter: new (nativeModule?: unknown) => NativeEventEmitterLike;
  /** React Native's DeviceEventEmitter: the daemon's events (RNPingPush and RNPingBinding listen here). */
  DeviceEventEmitter: NativeEventEmitterLike;
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
export function useDaemonClock(jest: JestLike, fakeTimers?: Omit<FakeTimersOptions, 'now'>): Promise<number>;
export function syncClock(jest: JestLike): Promise<number>;
export function advanceClock(jest: JestLike, seconds: number): Promise<number>;

declare global {
  /** This test file's daemon, set by setupAuthBridge / startAuthBridge / respawn. */
  // eslint-disable-next-line no-var
  var authbridge: Bridge;
}
