// Types for @authbridge/client (index.cjs / index.mjs). The shapes are those of the wire
// contract in protocol/README.md; the flavor-specific ones (rn-ios is the default) are unions.

/** The platform contract the daemon emulates (docs/flavors.md). */
export type Flavor = 'rn-ios' | 'rn-android' | 'flutter-ios' | 'flutter-android';

export interface SpawnOptions {
  /** Default `rn-ios`. */
  flavor?: Flavor;
  /** `sample` (default): the latest sample app's bridge; `guide`: the ForgeRock guide's iOS bridge (rn-ios). */
  bridge?: 'sample' | 'guide';
  /** Every id, token and code drawn from this seed (replayable output). */
  seed?: number;
  /** `system` (default), `virtual` (2026-01-01T00:00:00Z, still until advanceClock) or `virtual=EPOCH`. */
  clock?: 'system' | 'virtual' | `virtual=${number}`;
  /** Keep tokens, sessions and users in this directory across restarts. */
  stateDir?: string;
  logLevel?: 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** Write the request/response/event trace (redacted) to this file. */
  trace?: string;
  /** Further command-line options, e.g. `['--journeys', 'my-journeys.json']`. */
  args?: string[];
  /** The daemon binary; default: `findBinary()`. */
  binary?: string;
  /** Called with each chunk the daemon writes to stderr. */
  onStderr?: (text: string) => void;
  /** An emitter to deliver events to (respawn() passes the old one on). */
  emitter?: EventHub;
}

// ---- journeys: steps and callbacks ------------------------------------------------------------

export type CallbackType =
  | 'NameCallback' | 'PasswordCallback' | 'ChoiceCallback' | 'ConfirmationCallback' | 'TextInputCallback'
  | 'TextOutputCallback' | 'HiddenValueCallback' | 'PollingWaitCallback' | 'MetadataCallback'
  | 'ValidatedCreateUsernameCallback' | 'ValidatedCreatePasswordCallback' | 'StringAttributeInputCallback'
  | 'BooleanAttributeInputCallback' | 'NumberAttributeInputCallback' | 'KbaCreateCallback'
  | 'TermsAndConditionsCallback' | 'DeviceProfileCallback' | 'SuspendedTextOutputCallback'
  | 'ReCaptchaCallback' | 'SelectIdPCallback' | 'ConsentMappingCallback';

export interface NameValue<V = unknown> {
  name: string;
  value: V;
}

/** One AM callback, untouched: inputs are named IDToken1, IDToken2… by position. */
export interface Callback {
  type: CallbackType | (string & {});
  output: NameValue[];
  input?: NameValue<string | number | boolean | null>[];
  _id?: number;
}

/** A step as `JSON.parse(await login())` gives it (rn-ios / flutter-ios). */
export interface Step {
  authId: string;
  authServiceId: string;
  stage?: string;
  header?: string;
  description?: string;
  callbacks: Callback[];
}

/** A step from rn-android / flutter-android (Gson), with the bridge's `frCallbacks`. */
export interface AndroidStep {
  authId: string;
  authServiceId: string;
  stage?: string;
  pageHeader?: string;
  pageDescription?: string;
  frCallbacks: { type: string; prompt?: string; choices?: string[]; predefinedQuestions?: string[]; inputNames: string[]; response: string }[];
  callbacks: Callback[];
}

/** `next()` resolved a success: rn-ios carries the pretty AccessToken JSON in `tokens`. */
export interface LoginSuccessIOS {
  type: 'LoginSuccess';
  tokens: string;
}

/** rn-android's success: the Gson token in `sessionToken`. */
export interface LoginSuccessAndroid {
  type: 'LoginSuccess';
  sessionToken: string;
}

export type LoginSuccess = LoginSuccessIOS | LoginSuccessAndroid;

/** `JSON.parse(await getAccessToken())` on rn-ios. */
export interface AccessTokenJSON {
  value: string;
  successUrl: string;
  realm: string;
  expiresIn: number;
  scope: string;
  tokenType: string;
  refreshToken: string | null;
  idToken: string | null;
  /** Seconds since 2001-01-01 (add 978307200 for Unix time). */
  authenticatedTimestamp: number;
  sessionToken: string | null;
}

export interface UserInfo {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
  email?: string;
  subname?: string;
  [claim: string]: unknown;
}

// ---- token sync ------------------------------------------------------------------------------

/** The token map: `tokenUpdate`'s argument and the body of TOKEN_EVENT. */
export interface TokenMap {
  accessToken: string;
  refreshToken: string | null;
  idToken?: string | null;
  tokenType?: string;
  /** Unix seconds, on the daemon's clock (see `@authbridge/client/jest` to put Jest's on it). */
  expiresAt: number;
  scope?: string;
}

export interface TokenEvent extends TokenMap {
  generation: number;
  reason: 'login' | 'refresh' | 'session' | 'exchange' | 'ready' | 'reset';
}

export interface LogoutEvent {
  reason: 'native_logout' | 'refresh_rejected' | 'session_revoked' | 'session_ended' | 'reset';
  generation: number;
}

export interface TokenRequestEvent {
  requestId: string;
  reason: 'ready' | 'requested';
}

export interface EventMap {
  TOKEN_EVENT: TokenEvent;
  LOGOUT_EVENT: LogoutEvent;
  TOKEN_REQUEST_EVENT: TokenRequestEvent;
  RNPingBinding_PinRequired: BindingPinRequiredEvent;
  RNPingBinding_UserKeyRequired: BindingUserKeyRequiredEvent;
}

export type EventName = keyof EventMap;

export interface Subscription {
  remove(): void;
}

/** Listeners per event, shaped like React Native's NativeEventEmitter. */
export class EventHub {
  addListener<E extends EventName>(event: E, listener: (params: EventMap[E]) => void): Subscription;
  addListener(event: string, listener: (params: any) => void): Subscription;
  removeAllListeners(event?: string): void;
  listenerCount(event: string): number;
  emit(event: string, params: unknown): void;
}

// ---- errors ----------------------------------------------------------------------------------

/** A native promise rejection, as React Native hands it to JS. */
export interface NativeError extends Error {
  /** The native code: `Error`, `error`, `LoginFailure`, `500`… */
  code: string;
  rpcCode: -32000;
  /** AuthBridge's explanation for people, when it has one. */
  detail?: string;
  /** The Ping modules' userInfo: `type` is what the SDK's `PingError.from` reads. */
  userInfo?: PingUserInfo;
}

/** `userInfo` of an RNPingJourney / RNPingOidc rejection (GenericError). */
export interface PingUserInfo {
  type: 'argument_error' | 'auth_error' | 'exchange_error' | 'internal_error' | 'network_error' | 'state_error' | 'unknown_error';
  /** The rejection code again (`JOURNEY_STATE_ERROR`, `OIDC_TOKEN_ERROR`…). */
  error: string;
  message: string;
  status?: number;
}

/** Any other JSON-RPC error (bad arguments: −32602, unknown method: −32601…). */
export interface ProtocolError extends Error {
  code: number;
  rpcCode: number;
  data?: { reason?: string; param?: string; hint?: string; suggestion?: string; limit?: number; detail?: string };
}

export type AuthBridgeError = NativeError | ProtocolError;

/** A JSON-RPC error object as the transport receives it. */
export class RPCError extends Error {
  code: number;
  data?: unknown;
  constructor(error: { code: number; message: string; data?: unknown });
}

// ---- daemon and emulator ---------------------------------------------------------------------

export interface Hello {
  protocolVersion: string;
  daemonVersion: string;
  flavor: Flavor;
  framing: 'ndjson' | 'content-length';
  methods: string[];
  events: EventName[];
  /** The modules served; a namespaced module's methods are `namespace.method` on the wire. */
  modules: { name: string; namespace: string; methods: string[] }[];
  server: { kind: 'embedded'; realm: string; journeys: string[] };
  deterministic: boolean;
  stateDir: string | null;
}

export interface EmulatorState {
  now: number;
  generation: number;
  ready: boolean;
  pendingTokenRequest: string | null;
  tokens: null | {
    accessToken: string; refreshToken: string | null; idToken: string | null; tokenType: string; scope: string;
    expiresAt: number; expiresIn: number; stale: boolean;
  };
  ssoSession: boolean;
  server: { users: number; sessions: number; refreshCount: number };
}

export interface OneTimeCode {
  code: string;
  delivery: string;
  to: string;
  username: string;
  journey: string;
  expiresAt: number;
}

/** A node as a journey failure names it. */
export interface JourneyFailureNode { id: string; type: string; name?: string }

/** `emulator.setNodeOutcome`: a node (by id or display name) of a journey, and the outcome it takes. */
export interface NodeOutcome { journey: string; node: string; outcome: string }

/** A reason a node or the engine gave: its code and sentence, the node, and typed fields where they say more. */
export interface JourneyFailureReason {
  code: string;
  message: string;
  node?: JourneyFailureNode;
  /** `policy_failed`: each failing field with the requirements it failed (`MIN_LENGTH`). */
  policies?: { field: string; requirements: string[] }[];
  /** The check refused: WebAuthn (`challenge`, `origin`, `rpId`, `signature`, `counter`, …), binding (`claim`,
   *  `signature`, `algorithm`, `key`, `jws`), Amster JWT (`nonce`, `sub`, `kid`, `signature`, `jwt`). */
  check?: string;
  /** The binding claim refused (`exp`, `challenge`, `iss`, …). */
  claim?: string;
  /** The client error taken as the outcome (`Abort`, `NotAllowedError`, …). */
  error?: string;
  /** The Device Signing Verifier's `FAILURE` value (`INVALID_SUBJECT`, `INVALID_USER`, …). */
  failure?: string;
  /** The attribute looked up or missing (`no_account`, `missing_attribute`). */
  attribute?: string;
  provider?: string;
  retryLimit?: number;
  maxDevices?: number;
  /** `inner_journey_failed`: the inner journey, and the reason it gave. */
  journey?: string;
  innerReason?: Omit<JourneyFailureReason, 'innerReason'>;
}

/** `emulator.lastFailure`: the node whose outcome reached the failure and the last reason a node gave. */
export interface JourneyFailure {
  journey: string;
  node: JourneyFailureNode | null;
  outcome: string | null;
  /** `code`: one of the table in docs/journeys.md "Why a journey failed" (wrong_password, unknown_user,
   *  account_locked, policy_failed, webauthn_assertion_refused, binding_refused, retries_exhausted,
   *  inner_journey_failed, session_timed_out, suspended_link_expired, node_error, …). */
  reason: JourneyFailureReason | null;
  username: string | null;
  at: number;
}

/** A signing key of the embedded server, as `emulator.rotateSigningKeys` names it. */
export interface SigningKeyRef {
  kid: string;
  alg: 'RS256' | 'ES256' | 'PS256';
  /** Retired keys only: when it leaves the JWKS (Unix seconds, the daemon's clock). */
  publishedUntil?: number;
}

export interface SuspendedJourney {
  suspendedId: string;
  resumeUri: string;
  to: string;
  username: string;
  journey: string;
  expiresAt: number;
}

/** A seed document (docs/seed.md, protocol/schema/seed.schema.json): users, SSO sessions, OAuth clients. */
export interface SeedDocument {
  format?: 'authbridge-seed';
  version: 1;
  users?: SeedUser[];
  sessions?: SeedSession[];
  clients?: SeedClient[];
}

/** ISO 8601 UTC: `2026-01-01T00:00:00Z` or with milliseconds. */
export type SeedDate = string;

export interface SeedUser {
  username: string;
  id?: string;
  /** In clear (hashed by the directory); or `passwordHash`, never both. */
  password?: string;
  passwordHash?: { algorithm: 'PBKDF2-HMAC-SHA256'; iterations: number; salt: string; hash: string };
  attributes?: Record<string, unknown>;
  kba?: { question: string; answer: string }[];
  lock?: { until: SeedDate | null };
  counters?: Record<string, number>;
  loginCount?: number;
  /** Each kind as the directory keeps it (docs/seed.md lists the members), dates as ISO 8601. */
  devices?: {
    oath?: SeedDevice[]; push?: SeedDevice[]; webauthn?: SeedDevice[]; binding?: SeedDevice[];
    profile?: { uuid: string; identifier: string; alias?: string; metadata?: unknown; location?: unknown; lastSelectedDate: SeedDate }[];
  };
}

export interface SeedDevice {
  uuid: string;
  deviceName: string;
  createdDate: SeedDate;
  lastAccessDate: SeedDate;
  [member: string]: unknown;
}

export interface SeedSession {
  token: string;
  username: string;
  authTime?: SeedDate;
  lastAccess?: SeedDate;
  opsId?: string;
  journeys?: string[];
}

export interface SeedClient {
  clientId: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  scopes?: string[];
  /** AM's "ID Token Signing Algorithm" for the client; RS256 by default. */
  idTokenSigningAlgorithm?: 'RS256' | 'ES256' | 'PS256';
}

/** What `emulator.export` answers: every member present. */
export interface ExportedSeed extends SeedDocument {
  format: 'authbridge-seed';
  users: (SeedUser & { id: string; passwordHash: NonNullable<SeedUser['passwordHash']>; attributes: Record<string, unknown> })[];
  sessions: Required<SeedSession>[];
  clients: Required<SeedClient>[];
}

/** `emulator.davinciFlows`. */
export interface DavinciFlows {
  environmentId: string;
  /** `<HTTP origin>/<environmentId>/as`: discovery is at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  flows: { name: string; id: string; scenarioSteps: { node: string; outcomes: string[]; chosen: string | null }[] }[];
}

/** A form field of a DaVinci flow: its JSON as the client gets it (`type` is a collector the SDKs know). */
export interface DavinciField { type: string; key?: string; label?: string; required?: boolean; [member: string]: unknown }

/** A DaVinci flow file (docs/davinci.md): forms and connector steps, each leading on by its outcomes. */
export interface DavinciFlowFile {
  name?: string;
  id?: string;
  start?: string;
  nodes?: ({ id: string; next?: Record<string, string> } & (
    | { form: { name?: string; description?: string; category?: string; fields: DavinciField[] } }
    | { connector: string; capability: string; settings?: Record<string, unknown>; default?: string }
  ))[];
  flows?: DavinciFlowFile[];
}

export interface Emulator {
  /** Needs `clock: 'virtual'`. Resolves the new virtual time (Unix seconds). */
  advanceClock(seconds: number): Promise<{ now: number }>;
  addUser(user: { username: string; password: string; givenName?: string; familyName?: string; email?: string; attributes?: Record<string, string | number | boolean> }): Promise<{ username: string; id: string }>;
  nativeLogout(): Promise<{ loggedOut: boolean }>;
  requestToken(): Promise<{ requestId: string; delivered: boolean }>;
  revokeSession(username?: string): Promise<{ sessionsEnded: number; grantsRevoked: number }>;
  /**
   * Every access token issued to the user so far counts as expired on the daemon's clock
   * (introspection inactive, userinfo refused); refresh tokens and sessions stay, so the native
   * side's next `getAccessToken` refreshes (`TOKEN_EVENT`, reason `refresh`). A backend checking
   * the JWT's own `exp` offline still accepts it until then. Rejects (−32602, `username`) for an
   * unknown user.
   */
  expireTokens(username: string): Promise<{ accessTokensExpired: number; nativeExpired: boolean }>;
  state(): Promise<EmulatorState>;
  setServiceNames(names: { authServiceName?: string; registrationServiceName?: string }): Promise<{ authServiceName: string; registrationServiceName: string }>;
  /**
   * The outcome a scenario-decided node (a script, PingOne Protect Evaluation) takes from now on.
   * Served only when a loaded journey has such a node; −32602 for an unknown journey, node or outcome.
   */
  setNodeOutcome(choice: NodeOutcome): Promise<NodeOutcome>;
  lastOneTimeCode(): Promise<OneTimeCode | null>;
  /** The last journey that ended in AM's failure, and why; null when none has since the start. */
  lastFailure(): Promise<JourneyFailure | null>;
  /** New signing keys become current; the old ones stay in the JWKS until their tokens expire. Embedded server only. */
  rotateSigningKeys(): Promise<{ keys: SigningKeyRef[]; retired: SigningKeyRef[] }>;
  lastSuspendedJourney(): Promise<SuspendedJourney | null>;
  resumeJourney(suspendedId: string): Promise<string | LoginSuccess>;
  /** A user's emulated phones and the devices the embedded server has on their profile. */
  devices(username: string): Promise<Devices>;
  /** Wipes a phone (by id, or the user's first). */
  resetDevice(which: PhoneRef): Promise<Phone>;
  /** A second phone for the same user, with copies of what the first holds. */
  cloneDevice(which: PhoneRef): Promise<Phone>;
  /** The phone's authenticator app scans an `otpauth://` URI (an OATH registration step's hidden value). */
  scanOath(params: PhoneRef & { uri: string }): Promise<OathCredential>;
  /** The code the phone's app shows now (TOTP on the daemon's clock; HOTP moves its counter on). */
  oathCode(params: PhoneRef & { id?: string }): Promise<OathCredential & { code: string }>;
  /** The phone's device-binding keys (never the private halves). */
  bindingKeys(which: PhoneRef): Promise<BindingKeys>;
  /** Deletes one key (`key`) or every key on the phone only; the server keeps the device. */
  deleteBindingKeys(which: PhoneRef & { key?: string }): Promise<BindingKeys>;
  /** How the phone's next biometric or PIN prompts are answered, first first. */
  setBindingPrompts(which: PhoneRef & { answers: PromptAnswer[] }): Promise<{ phone: string; answers: PromptAnswer[] }>;
  /** The phone's answer to a DeviceBindingCallback or DeviceSigningVerifierCallback: the callback, inputs filled. */
  answerBinding(which: PhoneRef & { callback: BindingCallback }): Promise<BindingCallback>;
  /** The phone's authenticator scans a `pushauth://` URI and answers AM's registration. */
  scanPush(params: PhoneRef & { uri: string }): Promise<PushRegistration>;
  /** The push notifications delivered to the phone and not yet answered or expired. */
  pushNotifications(which: PhoneRef): Promise<{ phone: string; notifications: PushNotification[] }>;
  /** Approves a pending notification (the newest without `messageId`); `number` for a number challenge. */
  approvePush(params: PhoneRef & { messageId?: string; number?: number }): Promise<PushNotification>;
  /** Denies a pending notification (the newest without `messageId`). */
  denyPush(params: PhoneRef & { messageId?: string }): Promise<PushNotification>;
  /** Lets a pending notification go unanswered. */
  expirePush(params: PhoneRef & { messageId?: string }): Promise<PushNotification>;
  /** The last notification the push sender handed to SNS, to answer it as an authenticator app would. */
  lastPushNotification(): Promise<PushDelivery | null>;
  /** The phone's passkeys, without private keys. */
  passkeys(which: PhoneRef): Promise<{ phone: string; passkeys: Passkey[] }>;
  /**
   * Loads a seed document (inline, or `{ path }` of a file): checked in full, then applied in one unit.
   * A bad one rejects with −32602, `data.path` the JSON path at fault, and nothing is loaded.
   */
  import(document: SeedDocument | { path: string }): Promise<{ users: number; sessions: number; clients: number }>;
  /** The server's users (hashes, never clear passwords), live sessions and OAuth clients as a seed document. */
  export(): Promise<ExportedSeed>;
  /** Back to the state right after the start (state dir loaded, `--import` applied), without a respawn. */
  reset(): Promise<{ reset: true }>;
  /**
   * The phone answers a WebAuthn step (`data`: its MetadataCallback's data) as the ForgeRock SDKs
   * write `webAuthnOutcome`; a failed or cancelled ceremony gives the `ERROR::…` text.
   */
  answerWebAuthn(params: PhoneRef & { data: Record<string, unknown>; origin?: string; cancel?: boolean }): Promise<{ value: string }>;
  /** Makes the server fail the next `count` requests (default 1) to an operation, an HTTP route or path prefix (docs/faults.md). */
  fault(spec: FaultSpec): Promise<Fault>;
  /** The faults still to hit, in the order they were set. */
  faults(): Promise<{ faults: Fault[] }>;
  /** Clears one fault by id, or all of them; the ids cleared. */
  clearFaults(id?: string): Promise<{ cleared: string[] }>;
  /** The PingOne environment (id, issuer) and its DaVinci flows, with the steps a scenario decides. */
  davinciFlows(): Promise<DavinciFlows>;
  /** Loads a flow (docs/davinci.md, "Flow files"), or `{flows: [...]}`, replacing one of the same name. */
  loadDavinciFlow(flow: DavinciFlowFile): Promise<{ loaded: string[] }>;
  /** The outcome a connector step AuthBridge cannot run takes from now on. */
  setConnectorOutcome(choice: { flow: string; node: string; outcome: string }): Promise<{ flow: string; node: string; outcome: string }>;
}

/** The identity server's operations, as `emulator.fault` names them: hit from any caller. */
export type FaultOperation =
  | 'authenticate' | 'authorize' | 'token' | 'userInfo' | 'revoke' | 'endSession' | 'logoutSession'
  | 'validateSession' | 'sessionInfo' | 'introspect' | 'jwks' | 'devices' | 'pushMessage'
  | PingOneFaultOperation;

/** The PingOne server's operations (docs/faults.md, "PingOne"): hit from RNPingDavinci and the HTTP face's PingOne routes. */
export type PingOneFaultOperation =
  | 'pingOneAuthorize' | 'pingOneContinue' | 'pingOneToken' | 'pingOneUserInfo' | 'pingOneRevoke'
  | 'pingOneSignOff' | 'pingOneDiscovery' | 'pingOneIdp';

/** AM's REST endpoints on the HTTP face, as `emulator.fault` names them. */
export type FaultRoute =
  | 'authenticate' | 'sessions' | 'serverInfo' | 'authorize' | 'accessToken' | 'userInfo' | 'revoke'
  | 'introspect' | 'endSession' | 'wellKnown' | 'jwks' | 'devices' | 'pushMessage' | 'loginPage';

/** How a hit request fails: AM's error body with a status, a late answer, a dropped connection, or silence. */
export type FaultKind =
  | { kind: 'status'; status?: number; message?: string }
  | { kind: 'latency'; seconds: number }
  | { kind: 'drop' }
  | { kind: 'timeout'; seconds?: number };

/** Which requests: exactly one of an operation, a route, a path prefix. */
export type FaultTarget = { operation: FaultOperation } | { route: FaultRoute } | { path: string };

/** `emulator.fault`'s spec: a target, a kind, and `count` (default 1) or `untilCleared: true`. */
export type FaultSpec = FaultTarget & FaultKind & ({ count?: number } | { untilCleared: true });

/** A fault in the plan. */
export type Fault = FaultTarget & FaultKind & {
  /** `fault-1`, `fault-2`…, in the order they were set. */
  id: string;
  /** Requests it will still fail; null until cleared. */
  remaining: number | null;
  untilCleared: boolean;
  /** Requests it has failed so far. */
  hits: number;
};

/** An OATH credential on an emulated phone, without its secret. */
export interface OathCredential {
  /** `issuer:accountName` */
  id: string;
  issuer: string;
  accountName: string;
  type: 'totp' | 'hotp';
  algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  digits: 6 | 8;
  /** TOTP: seconds per code. */
  period?: number;
  /** HOTP: the counter of the next code. */
  counter?: number;
}

/** How the emulated user answers a biometric or PIN prompt. */
export type PromptAnswer = 'approve' | 'cancel' | 'timeout' | 'unsupported';

/** A device-binding key on a phone. */
export interface BindingKey {
  /** The key id (`kid`): the device's uuid at the server. */
  id: string;
  userId: string;
  username: string;
  authenticationType: 'BIOMETRIC_ONLY' | 'BIOMETRIC_ALLOW_FALLBACK' | 'APPLICATION_PIN' | 'NONE';
  createdAt: number;
  /** The public key as a JWK (EC P-256). */
  publicKey: Record<string, unknown>;
}

export interface BindingKeys {
  phone: string;
  keys: BindingKey[];
}

/** A DeviceBindingCallback or DeviceSigningVerifierCallback as AM sends it. */
export interface BindingCallback {
  type: 'DeviceBindingCallback' | 'DeviceSigningVerifierCallback';
  output: Array<{ name: string; value: unknown }>;
  input: Array<{ name: string; value: string }>;
}

/** A push notification as AM's sender hands it to SNS. */
export interface PushDelivery {
  messageId: string;
  /** AM's HS256 JWT: `u` mechanism uid, `c` challenge, `m` text, `k` push type, `t` lifetime, `n` numbers… */
  message: string;
  /** The push token it goes to. */
  deviceId: string;
  communicationId: string;
  subject: string;
  pushType: string;
}

/** A push registration on a phone (no secret). */
export interface PushRegistration {
  /** The mechanism uid the phone sent AM. */
  id: string;
  issuer: string;
  accountName: string;
  authenticationEndpoint: string;
  addedAt: number;
  uid?: string;
  resourceId?: string;
}

/** A push notification delivered to a phone. */
export interface PushNotification {
  /** AM's message id. */
  id: string;
  mechanismUid: string;
  message: string;
  pushType: 'default' | 'challenge' | 'biometric';
  /** The three numbers of a number challenge. */
  numbers?: number[];
  sentAt: number;
  expiresAt: number;
}

/** A phone by its id from `emulator.devices` (`ada`, `ada#2`), or a user's first phone. */
export type PhoneRef = { username: string } | { phone: string };

/** An emulated phone: what it holds, without secrets or private keys. */
export interface Phone {
  id: string;
  owner: string;
  oath: Array<Record<string, unknown>>;
  push: Array<Record<string, unknown>>;
  notifications: Array<Record<string, unknown>>;
  passkeys: Array<Record<string, unknown>>;
  bindingKeys: BindingKey[];
  /** How the next biometric or PIN prompts will be answered. */
  promptAnswers: PromptAnswer[];
}

/** A passkey on an emulated phone (no private key). */
export interface Passkey {
  /** The credential id, base64url. */
  id: string;
  rpId: string;
  /** The user handle the relying party gave, base64url. */
  userHandle: string;
  userName: string;
  signCount: number;
}

/** One device on a user's profile, as AM's device REST endpoints list it. */
export interface RegisteredDevice {
  _id: string;
  uuid: string;
  deviceName: string;
  createdDate: number;
  lastAccessDate: number;
  [member: string]: unknown;
}

export interface Devices {
  username: string;
  phones: Phone[];
  /** Absent in remote mode. */
  registered?: { oath: RegisteredDevice[]; push: RegisteredDevice[]; webauthn: RegisteredDevice[]; binding: RegisteredDevice[] };
}

/** A module as `jest.mock('react-native', …)` hands it to app code. */
export interface EventModule {
  addListener(event: string): void;
  removeListeners(count: number): void;
}

/** The sample bridge's methods (iOS names; other flavors' through `call`). */
export interface BridgeMethods {
  start(): Promise<string>;
  login(): Promise<string>;
  register(): Promise<string>;
  /** `payload` is a JSON *string*: `JSON.stringify(step)`. */
  next(payload: string): Promise<string | LoginSuccess>;
  getUserInfo(): Promise<UserInfo>;
  getAccessToken(): Promise<string>;
  logout(): Promise<null>;
}

/** The token-sync module's methods. */
export interface TokenSyncMethods {
  tokenSyncReady(): Promise<null>;
  tokenUpdate(tokens: TokenMap): Promise<null>;
  exchangeToken(subjectToken: string): Promise<TokenMap & { generation: number }>;
}

export interface FRAuthSampleBridgeModule extends EventModule, BridgeMethods {}

export interface AuthenticationTokenModuleType extends EventModule, Pick<TokenSyncMethods, 'tokenSyncReady' | 'tokenUpdate'> {
  logout(): Promise<null>;
}

export interface HydraTokenExchangeModuleType extends EventModule, Pick<TokenSyncMethods, 'exchangeToken'> {}

export interface NativeModulesShape {
  FRAuthSampleBridge: FRAuthSampleBridgeModule;
  AuthenticationTokenModule: AuthenticationTokenModuleType;
  HydraTokenExchangeModule: HydraTokenExchangeModuleType;
  /** The classic-architecture fallbacks of the Ping modules: the same objects as the TurboModules. */
  RNPingJourneyClassic: RNPingJourneyModule;
  RNPingOidcClassic: RNPingOidcModule;
  RNPingStorageClassic: RNPingStorageModule;
  RNPingOathClassic: RNPingOathModule;
  RNPingLoggerClassic: RNPingLoggerModule;
  RNPingProtectClassic: RNPingProtectModule;
  RNPingDeviceClientClassic: RNPingDeviceClientModule;
  RNPingBrowserClassic: RNPingBrowserModule;
  RNPingPushClassic: RNPingPushModule;
  RNPingFidoClassic: RNPingFidoModule;
  RNPingDeviceProfileClassic: RNPingDeviceProfileModule;
  RNPingDeviceIdClassic: RNPingDeviceIdModule;
  RNPingExternalIdpClassic: RNPingExternalIdpModule;
  RNPingBindingClassic: RNPingBindingModule;
  RNPingDavinciClassic: RNPingDavinciModule;
}

// ---- the Ping React Native SDK's modules (docs/ping-modules.md) ------------------------------

export type JourneyCallbackPayload = { type: string; raw?: Record<string, unknown>; [key: string]: unknown };

export type JourneyNode =
  | { type: 'ContinueNode'; input: Record<string, unknown>; header: string; description: string; stage: string;
      submitButtonText: string; pageFooter: string; callbacks: JourneyCallbackPayload[] }
  /** `status` on iOS only. */
  | { type: 'ErrorNode'; message: string; status?: number; input: Record<string, unknown> }
  | { type: 'FailureNode'; message: string; cause: string }
  | { type: 'SuccessNode'; input: { tokenId?: string; successUrl: string; realm: string } };

export interface JourneySession { accessToken: string; refreshToken?: string; expiresIn: number; userInfo?: UserInfo }

export interface RNPingJourneyModule extends EventModule {
  configureJourney(config: Record<string, unknown>): Promise<string>;
  start(journeyId: string, journeyName: string, options?: { forceAuth?: boolean; noSession?: boolean } | null): Promise<JourneyNode>;
  next(journeyId: string, nodeId: string, input: { callbacks?: { type: string; value?: unknown; index?: number | string }[] }): Promise<JourneyNode>;
  resume(journeyId: string, uri: string): Promise<JourneyNode>;
  getSession(journeyId: string): Promise<JourneySession | null>;
  refresh(journeyId: string): Promise<JourneySession | null>;
  revoke(journeyId: string): Promise<true>;
  userinfo(journeyId: string): Promise<UserInfo | null>;
  ssoToken(journeyId: string): Promise<{ value: string; successUrl: string; realm: string } | null>;
  logout(journeyId: string): Promise<true>;
  dispose(journeyId: string): Promise<null>;
}

/** `{accessToken, idToken?, refreshToken?, tokenExpiry?}`; tokenExpiry in Unix seconds. */
export interface OidcTokenMap { accessToken: string; idToken?: string; refreshToken?: string; tokenExpiry?: number }

export interface RNPingOidcModule extends EventModule {
  /** Synchronous, as on the device: a bad config throws (NSInvalidArgumentException / IllegalArgumentException). */
  createClient(config: Record<string, unknown>): string;
  createWebClient(clientId: string): string;
  disposeClient(clientId: string): Promise<null>;
  disposeWebClient(webClientId: string): Promise<null>;
  clientToken(clientId: string): Promise<OidcTokenMap>;
  clientRefresh(clientId: string): Promise<OidcTokenMap>;
  clientUserinfo(clientId: string, cache: boolean): Promise<UserInfo>;
  clientRevoke(clientId: string): Promise<null>;
  clientEndSession(clientId: string): Promise<boolean>;
  authorize(webClientId: string, options: Record<string, unknown>): Promise<{ type: 'success' | 'cancel' }>;
  hasUser(webClientId: string): Promise<boolean>;
  token(webClientId: string): Promise<OidcTokenMap>;
  refresh(webClientId: string): Promise<OidcTokenMap>;
  userinfo(webClientId: string, cache: boolean): Promise<UserInfo>;
  revoke(webClientId: string): Promise<null>;
  logout(webClientId: string): Promise<null>;
}

/**
 * `@ping-identity/rn-storage`'s flat config (NativeStorageConfig) and what configure answers:
 * iOS keeps `account`, `encryptor`, `cacheable`; Android `keyAlias`, `fileName`,
 * `strongBoxPreferred`, `cacheStrategy`; OATH its own keys.
 */
export type NativeStorageConfig = { [key: string]: string | boolean | undefined };

/** Every method is synchronous, as on the device; configure of an unknown id throws. */
export interface RNPingStorageModule extends EventModule {
  registerSessionStorage(config: NativeStorageConfig): string;
  registerOidcStorage(config: NativeStorageConfig): string;
  registerBindingUserKeyStorage(config: NativeStorageConfig): string;
  registerPushStorage(config: NativeStorageConfig): string;
  registerOathStorage(config: NativeStorageConfig): string;
  configureSessionStorage(id: string): NativeStorageConfig;
  configureOidcStorage(id: string): NativeStorageConfig;
  configureBindingUserKeyStorage(id: string): NativeStorageConfig;
  configurePushStorage(id: string): NativeStorageConfig;
  configureOathStorage(id: string): NativeStorageConfig;
}

/** A credential as `encodeCredential` writes it (no secret); `policies` is "" on Android when the URI had none. */
export interface OathCredentialPayload {
  id: string; issuer: string; displayIssuer: string; accountName: string; displayAccountName: string;
  type: 'TOTP' | 'HOTP'; userId: string | null; resourceId: string | null; digits: number; period: number; counter: number;
  imageURL: string | null; backgroundColor: string | null; isLocked: boolean; algorithm: 'SHA1' | 'SHA256' | 'SHA512';
  createdAt: number; policies: string | null; lockingPolicy: string | null;
}

/** `OathCodeInfo`: TOTP sets counter -1; HOTP sets timeRemaining -1, progress 0, totalPeriod 0. */
export interface OathCodeInfoPayload { code: string; timeRemaining: number; counter: number; progress: number; totalPeriod: number }

export interface RNPingOathModule extends EventModule {
  create(config: { loggerId?: string; timeout?: number; enableCredentialCache?: boolean; encryptionEnabled?: boolean;
    storageId?: string; policyEvaluatorId?: string }): Promise<string>;
  addCredentialFromUri(handle: string, uri: string): Promise<OathCredentialPayload>;
  getCredential(handle: string, credentialId: string): Promise<OathCredentialPayload | null>;
  getCredentials(handle: string): Promise<OathCredentialPayload[]>;
  saveCredential(handle: string, credential: Partial<OathCredentialPayload>): Promise<OathCredentialPayload>;
  deleteCredential(handle: string, credentialId: string): Promise<boolean>;
  generateCode(handle: string, credentialId: string): Promise<string>;
  generateCodeWithValidity(handle: string, credentialId: string): Promise<OathCodeInfoPayload>;
  close(handle: string): Promise<null>;
  /** Synchronous, as on the device. */
  registerOathPolicyEvaluator(config: { policies: string[]; loggerId?: string }): string;
  /** Synchronous; an unknown id is `{policies: []}` on iOS and throws IllegalStateException on Android. */
  configureOathPolicyEvaluator(id: string): { policies: string[]; loggerId?: string };
}

/** Both synchronous, as on the device; TurboModuleRegistry names it 'Logger'. */
export interface RNPingLoggerModule extends EventModule {
  registerLogger(config: { level: 'STANDARD' | 'WARN' | 'NONE' }): string;
  syncLogger(config: { id: string; level: 'STANDARD' | 'WARN' | 'NONE' }): void;
}

export interface RNPingProtectModule extends EventModule {
  initialize(protectConfig: { envId?: string; isBehavioralDataCollection?: boolean; isLazyMetadata?: boolean;
    customHost?: string; isConsoleLogEnabled?: boolean; deviceAttributesToIgnore?: string[] },
    clientConfig: { loggerId?: string }): Promise<null>;
  pauseBehavioralData(clientConfig: { loggerId?: string }): Promise<null>;
  resumeBehavioralData(clientConfig: { loggerId?: string }): Promise<null>;
  /** Rejects PROTECT_COLLECTOR_NOT_FOUND: AuthBridge runs no DaVinci flow. */
  collectForDaVinci(davinciId: string, options: Record<string, unknown>, clientConfig: { loggerId?: string }): Promise<null>;
}

/** `deviceType`s of `@ping-identity/rn-device-client`; another kind is rejected. */
export type DeviceKind = 'oath' | 'push' | 'bound' | 'profile' | 'webAuthn';

/** An OATH or push device; a bound one adds `deviceId`, a WebAuthn one `credentialId`. Dates in ms. */
export interface TwoFactorDevice {
  id: string; deviceName: string; uuid: string; createdDate: number; lastAccessDate: number;
  deviceId?: string; credentialId?: string;
}

/** A profile the Device Profile Save node kept; `deviceName` is AM's alias. `location`: absent on iOS, null on Android when AM has none. */
export interface ProfileDevice {
  id: string; deviceName: string; identifier: string; metadata: Record<string, unknown>;
  location?: { latitude?: number; longitude?: number } | null; lastSelectedDate: number;
}

export type Device = TwoFactorDevice | ProfileDevice;

export interface RNPingDeviceClientModule extends EventModule {
  /** `{serverUrl, ssoToken, realm, cookieName, loggerId?}` → the client's handle. */
  create(config: Record<string, unknown>): Promise<string>;
  get(handleId: string, deviceType: DeviceKind | string): Promise<{ result: Device[] }>;
  update(handleId: string, deviceType: DeviceKind | string, device: Device): Promise<{ result: Device }>;
  deleteDevice(handleId: string, deviceType: DeviceKind | string, device: Device): Promise<{ result: Device }>;
  dispose(handleId: string): Promise<null>;
}

export type BrowserResult = { type: 'success'; url: string } | { type: 'cancel' };

export interface RNPingBrowserModule extends EventModule {
  /** Synchronous, as on the device (Android's Custom Tabs options; nothing shows here). */
  configure(config: Record<string, unknown>): void;
  /** Synchronous, as on the device. */
  reset(): void;
  open(url: string, options: { callbackUrlScheme: string; redirectUri?: string; ios?: Record<string, unknown>; loggerId?: string }): Promise<BrowserResult>;
}

/** RNPingPush: push/src/types/credential.types.ts; Android sends `null` for userId, resourceId, serverEndpoint. */
export interface PingPushCredential {
  id: string; userId: string | null; resourceId: string | null; issuer: string; displayIssuer: string | null;
  accountName: string; displayAccountName: string | null; serverEndpoint: string | null; createdAt: number;
  imageURL: string | null; backgroundColor: string | null; policies: string | null; lockingPolicy: string | null;
  isLocked: boolean; platform: string;
}

/** RNPingPush: push/src/types/notification.types.ts (not the emulator's PushNotification); times in ms; Android sends `null` for challenge. */
export interface PingPushNotification {
  id: string; credentialId: string; ttl: number; messageId: string; messageText: string | null;
  customPayload: string | null; challenge: string | null; numbersChallenge: string | null; loadBalancer: string | null;
  contextInfo: string | null; pushType: 'default' | 'challenge' | 'biometric' | string; createdAt: number;
  sentAt: number | null; respondedAt: number | null; approved: boolean; pending: boolean;
}

/**
 * The message data `com.pingidentity.rnpush.PushMessageReceived` carries (DeviceEventEmitter):
 * APNs' `{aps: {alert, data, messageId}}` on iOS, FCM's `{messageId, message}` on Android.
 */
export type PushMessageData = Record<string, unknown>;

/** push/src/NativeRNPingPush.ts: every method answers a promise; the first argument is initialize's id. */
export interface RNPingPushModule extends EventModule {
  initialize(config: Record<string, unknown>): Promise<string>;
  addCredentialFromUri(clientId: string, uri: string): Promise<PingPushCredential>;
  getCredential(clientId: string, credentialId: string): Promise<{ credential: PingPushCredential | null }>;
  getCredentials(clientId: string): Promise<{ credentials: PingPushCredential[] }>;
  saveCredential(clientId: string, credential: PingPushCredential): Promise<PingPushCredential>;
  deleteCredential(clientId: string, credentialId: string): Promise<boolean>;
  setDeviceToken(clientId: string, token: string, credentialId: string | null): Promise<boolean>;
  getDeviceToken(clientId: string): Promise<{ token: string | null }>;
  processNotification(clientId: string, messageData: PushMessageData): Promise<{ notification: PingPushNotification | null }>;
  processNotificationFromMessage(clientId: string, message: string): Promise<{ notification: PingPushNotification | null }>;
  approveNotification(clientId: string, notificationId: string): Promise<boolean>;
  approveChallengeNotification(clientId: string, notificationId: string, challengeResponse: string): Promise<boolean>;
  approveBiometricNotification(clientId: string, notificationId: string, authenticationMethod: string): Promise<boolean>;
  denyNotification(clientId: string, notificationId: string): Promise<boolean>;
  getPendingNotifications(clientId: string): Promise<{ notifications: PingPushNotification[] }>;
  getAllNotifications(clientId: string): Promise<{ notifications: PingPushNotification[] }>;
  getNotification(clientId: string, notificationId: string): Promise<{ notification: PingPushNotification | null }>;
  cleanupNotifications(clientId: string, credentialId: string | null): Promise<number>;
  close(clientId: string): Promise<null>;
  consumePendingMessages(): Promise<PushMessageData[]>;
  /** Android: FCM's token for the app, registered with the client; iOS: `{token: null}`. */
  refreshToken(clientId: string): Promise<{ token: string | null }>;
}

/** `{loggerId?, useFido2Client?}`: accepted; nothing in it changes what the emulated phone does. */
export type FidoClientConfig = { loggerId?: string; useFido2Client?: boolean };

/** RNPingFido (fido/src/NativeRNPingFido.ts): passkeys on the app's phone. */
export interface RNPingFidoModule extends EventModule {
  /** WebAuthn creation options; iOS resolves `{rawId, clientDataJSON, attestationObject}` as `"<n> bytes"` texts, Android Credential Manager's JSON. */
  registerCredential(options: Record<string, unknown>, config: FidoClientConfig): Promise<Record<string, unknown>>;
  authenticateCredential(options: Record<string, unknown>, config: FidoClientConfig): Promise<Record<string, unknown>>;
  /** Runs the journey's current FidoRegistrationCallback (`options.index`, `options.deviceName`); then call `RNPingJourney.next`. */
  registerCredentialForJourney(journeyId: string, options: { index?: number | string; deviceName?: string },
    config: FidoClientConfig): Promise<{ type: 'success' }>;
  authenticateCredentialForJourney(journeyId: string, options: { index?: number | string },
    config: FidoClientConfig): Promise<{ type: 'success' }>;
}

export type DeviceProfileCollectorName = 'platform' | 'hardware' | 'network' | 'telephony' | 'browser' | 'bluetooth' | 'location';

/** RNPingDeviceProfile (device-profile/src/NativeRNPingDeviceProfile.ts). */
export interface RNPingDeviceProfileModule extends EventModule {
  /** Each named collector's data under its name. */
  collectDeviceProfile(collectors: DeviceProfileCollectorName[]): Promise<Record<string, unknown>>;
  /** Answers the journey's current DeviceProfileCallback; then call `RNPingJourney.next`. */
  collectDeviceProfileForJourney(journeyId: string, collectors: DeviceProfileCollectorName[],
    loggerId?: string): Promise<{ type: 'success' }>;
}

/** RNPingDeviceId (device-id/src/NativeRNPingDeviceId.ts): 64 lower-case hex digits, the same on every call. */
export interface RNPingDeviceIdModule extends EventModule {
  getDefaultDeviceId(): Promise<string>;
}

/** What authorizeForJourney resolves: the provider's token; `additionalParameters` absent on iOS unless Apple's, always a map on Android. */
export interface ExternalIdpResult { token: string; additionalParameters?: Record<string, string> }

/** `options`: `{index?}` (which IdP/SelectIdP callback of the node); `config`: `{redirectUri, loggerId?}`. */
export interface RNPingExternalIdpModule extends EventModule {
  authorizeForJourney(journeyId: string, options: { index?: number | string }, config: { redirectUri: string; loggerId?: string }): Promise<ExternalIdpResult>;
  selectProviderForJourney(journeyId: string, provider: string, options: { index?: number | string }, config: { redirectUri: string; loggerId?: string }): Promise<null>;
  /** DaVinci is not emulated: always rejects EXTERNAL_IDP_CALLBACK_NOT_FOUND. */
  authorizeForDaVinci(davinciId: string, options: { index?: number | string }, config: { redirectUri: string; loggerId?: string }): Promise<null>;
}

/** A `UserKey` as RNPingBinding lists it (Android's `id` is the key alias, iOS's the key id). */
export interface BindingUserKey { id: string; userId: string; username: string; authenticationType: string }

/** `RNPingBinding_PinRequired` / `RNPingBinding_UserKeyRequired` (binding/ios/BindingEventBridge.swift). */
export interface BindingPinRequiredEvent { requestId: string; title: string; subtitle: string; description: string }
export interface BindingUserKeyRequiredEvent { requestId: string; userKeys: BindingUserKey[] }

/** binding/src/NativeRNPingBinding.ts: bind/sign settle once any prompt they raised is answered. */
export interface RNPingBindingModule extends EventModule {
  bindForJourney(journeyId: string, options: Record<string, unknown>, config: Record<string, unknown>): Promise<{ type: 'success' }>;
  signForJourney(journeyId: string, options: Record<string, unknown>, config: Record<string, unknown>): Promise<{ type: 'success' }>;
  /** `void` on the device: sent at once, in call order. */
  resolvePin(requestId: string, pin: string): void;
  cancelPin(requestId: string): void;
  selectUserKey(requestId: string, keyId: string): void;
  cancelUserKey(requestId: string): void;
  getAllKeys(): Promise<BindingUserKey[]>;
  deleteKey(userId: string, keyId: string): Promise<null>;
  deleteAllKeys(): Promise<null>;
}

/** davinci/src/NativeRNPingDavinci.ts: `configureDaVinci`'s flat config (docs/ping-modules.md, RNPingDavinci). */
export interface DaVinciNativeConfig {
  discoveryEndpoint: string; clientId: string; redirectUri: string; scopes?: string[]; storageId?: string;
  signOutRedirectUri?: string; loginHint?: string; nonce?: string; state?: string; prompt?: string; display?: string;
  uiLocales?: string; acrValues?: string; refreshThreshold?: number; additionalParameters?: Record<string, string>;
  timeout?: number; loggerId?: string; protect?: Record<string, unknown>;
}

/** A collector as the native mappers map it: `key`, `type`, the server's field as `raw`, and the class's own members. */
export type DaVinciCollectorPayload = { key: string; type: string; raw?: Record<string, unknown>; [member: string]: unknown };

export type DaVinciNodePayload =
  | { type: 'ContinueNode'; id: string; name: string; description: string; category: string;
      collectors: DaVinciCollectorPayload[]; input: Record<string, unknown>;
      unsupportedFields?: { key: string; type: string }[] }
  | { type: 'SuccessNode'; session: { value: string } }
  /** `status` on iOS only. */
  | { type: 'ErrorNode'; message: string; status?: number; input: Record<string, unknown> }
  /** `status` on iOS only, when PingOne answered. */
  | { type: 'FailureNode'; message: string; cause: string; status?: number };

/** `com.pingidentity.rndavinci.PollingStatus`. */
export type DaVinciPollingStatusEvent = { subscriptionId: string; daVinciId: string } & (
  | { status: 'continue'; retryCount: number; maxRetries: number }
  | { status: 'complete'; value: string }
  | { status: 'timedOut' } | { status: 'expired' }
  | { status: 'error'; error: { message: string } });

export interface RNPingDavinciModule extends EventModule {
  configureDaVinci(config: DaVinciNativeConfig): Promise<string>;
  start(davinciId: string): Promise<DaVinciNodePayload>;
  /** `input.collectors`: `{key, value}` applied to the current form's collectors. */
  next(davinciId: string, input: { collectors?: { key: string; value?: unknown }[] }): Promise<DaVinciNodePayload>;
  getSession(davinciId: string): Promise<{ accessToken: string; expiresIn: number; refreshToken?: string; userInfo?: Record<string, unknown> } | null>;
  refresh(davinciId: string): Promise<{ accessToken: string; expiresIn: number; refreshToken?: string; userInfo?: Record<string, unknown> } | null>;
  revoke(davinciId: string): Promise<boolean>;
  userinfo(davinciId: string): Promise<Record<string, unknown> | null>;
  logout(davinciId: string): Promise<null>;
  dispose(davinciId: string): Promise<null>;
  /** Resolves the subscription; the ticks are `com.pingidentity.rndavinci.PollingStatus` events. */
  pollDaVinci(davinciId: string, options: { key?: string }): Promise<{ subscriptionId: string }>;
}

export interface PingModules {
  RNPingJourney: RNPingJourneyModule;
  RNPingOidc: RNPingOidcModule;
  RNPingStorage: RNPingStorageModule;
  RNPingOath: RNPingOathModule;
  RNPingLogger: RNPingLoggerModule;
  /** The logger's TurboModule name. */
  Logger: RNPingLoggerModule;
  RNPingProtect: RNPingProtectModule;
  RNPingDeviceClient: RNPingDeviceClientModule;
  RNPingBrowser: RNPingBrowserModule;
  RNPingPush: RNPingPushModule;
  RNPingFido: RNPingFidoModule;
  RNPingDeviceProfile: RNPingDeviceProfileModule;
  RNPingDeviceId: RNPingDeviceIdModule;
  RNPingExternalIdp: RNPingExternalIdpModule;
  RNPingBinding: RNPingBindingModule;
  RNPingDavinci: RNPingDavinciModule;
}

/** React Native's TurboModuleRegistry over the Ping modules. */
export interface TurboModuleRegistryLike {
  get<K extends keyof PingModules>(name: K): PingModules[K];
  get(name: string): unknown | null;
  getEnforcing<K extends keyof PingModules>(name: K): PingModules[K];
}

/** `new bridge.NativeEventEmitter(module)`: every instance hears the daemon's events. */
export interface NativeEventEmitterLike {
  addListener<E extends EventName>(event: E, listener: (params: EventMap[E]) => void): Subscription;
  addListener(event: string, listener: (params: any) => void): Subscription;
  removeAllListeners(event?: string): void;
  listenerCount(event: string): number;
}

export interface Bridge extends BridgeMethods, TokenSyncMethods {
  readonly hello: Hello;
  readonly options: SpawnOptions;
  readonly emitter: EventHub;
  readonly emulator: Emulator;
  readonly NativeEventEmitter: new (nativeModule?: unknown) => NativeEventEmitterLike;
  /** React Native's `DeviceEventEmitter`: the daemon's events (RNPingPush's and RNPingBinding's among them). */
  readonly DeviceEventEmitter: NativeEventEmitterLike;
  /** The daemon's process id. */
  readonly pid: number | undefined;
  /** Everything the daemon wrote to stderr so far. */
  readonly stderr: string;

  /** A bridge method by name with positional arguments (other flavors' methods). */
  call(method: string, args?: unknown[]): Promise<any>;
  /** Any method with named params (daemon.*, emulator.*). */
  request(method: string, params?: Record<string, unknown>): Promise<any>;
  /** Flutter's `MethodChannel.invokeMethod`: one optional argument; results are strings. */
  invokeMethod(name: string, argument?: unknown): Promise<any>;
  nativeModules(): NativeModulesShape;
  /** The Ping SDK's TurboModules calling this daemon (one set per bridge). */
  pingModules(): PingModules;
  turboModuleRegistry(): TurboModuleRegistryLike;
  /** Ends the daemon (stdin EOF) and resolves its exit status. */
  close(): Promise<{ code: number | null; signal: string | null }>;
  /** Closes this daemon and starts a fresh one with the same options and emitter. */
  respawn(overrides?: SpawnOptions): Promise<Bridge>;
}

/**
 * Starts a daemon; resolves once it answered `daemon.hello`. Throws a TypeError for an option it
 * does not know. `$AUTHBRIDGE_ARGS` adds daemon options after these (printed on stderr when used).
 */
export function spawnBridge(options?: SpawnOptions): Promise<Bridge>;
/**
 * `$AUTHBRIDGE_BIN`, else `authbridge` on PATH, else the binary in the platform package
 * (`@authbridge/client-<platform>-<arch>`, an optional dependency), else the checkout's debug build.
 */
export function findBinary(env?: Record<string, string | undefined>): string | undefined;
/** The platforms a binary package is built for (`process.platform`-`process.arch`). */
export const PLATFORMS: readonly ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64'];
/** `@authbridge/client-<platform>-<arch>`: the package carrying the daemon for that machine. */
export function platformPackage(platform?: string, arch?: string): string;
/** What to install when no daemon is found (the text after "authbridge binary not found: "). */
export function binaryNotFoundHint(platform?: string, arch?: string): string;
export function defaultBinary(): string | undefined;

export const BRIDGE_METHODS: readonly ['start', 'login', 'register', 'next', 'getUserInfo', 'getAccessToken', 'logout'];
export const TOKEN_SYNC_METHODS: readonly ['tokenSyncReady', 'tokenUpdate', 'exchangeToken'];
export const EVENTS: readonly EventName[];
export const PING_JOURNEY_METHODS: readonly string[];
export const PING_OIDC_METHODS: readonly string[];
export const PING_STORAGE_METHODS: readonly string[];
export const PING_OATH_METHODS: readonly string[];
export const PING_LOGGER_METHODS: readonly string[];
export const PING_PROTECT_METHODS: readonly string[];
export const PING_DEVICE_CLIENT_METHODS: readonly string[];
export const PING_BROWSER_METHODS: readonly string[];
export const PING_PUSH_METHODS: readonly string[];
export const PING_FIDO_METHODS: readonly string[];
export const PING_DEVICE_PROFILE_METHODS: readonly string[];
export const PING_DEVICE_ID_METHODS: readonly string[];
export const PING_EXTERNAL_IDP_METHODS: readonly string[];
export const PING_BINDING_METHODS: readonly string[];
export const PING_DAVINCI_METHODS: readonly string[];
