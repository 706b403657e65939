export { listenWs15, type RunningWs15 } from './server.js';
export { TEST_STORE, WS15_PATH } from './test-data.js';
export type { Ws15LedgerRow } from './ledger.js';
