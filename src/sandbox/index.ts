export { buildSandbox, listenSandbox, type Sandbox, type RunningSandbox } from './server.js';
export type { SandboxOptions, FaultSpec } from './context.js';
export { sandboxCredentials } from './controls.js';
export { ledgerReport, type LedgerReport } from './ledger.js';
export { businessDay } from './clock.js';
export { INITIALIZATION_VERSION } from './answers.js';
