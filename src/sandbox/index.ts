export { buildSandbox, type Sandbox } from './server.js';
export { listenSandbox, type RunningSandbox, type ListenOptions } from './listen.js';
export type { SandboxOptions, FaultSpec } from './context.js';
export { sandboxCredentials } from './controls.js';
export { ledgerReport, type LedgerReport } from './ledger.js';
export { businessDay } from './clock.js';
export { INITIALIZATION_VERSION } from './answers.js';
export { SANDBOX_BASES, BASE_SOURCES, type SandboxBase } from './routes.js';
export {
  CONFIG_KEY_OF_BASE,
  sandboxSettings,
  sandboxEnv,
  recordInUse,
  readInUse,
  type SandboxInUse,
} from './addresses.js';
export { listenWs15, ws15Listener, Ws15Host, TEST_STORE, TEST_CARDS, WS15_PATH } from './webservice15/index.js';
export type { RunningWs15, Ws15HostOptions, Ws15LedgerRow } from './webservice15/index.js';
