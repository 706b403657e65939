export { listenWs15, ws15Listener, type RunningWs15 } from './server.js';
export { Ws15Host, type Ws15HostOptions } from './host.js';
export { TEST_STORE, TEST_CARDS, WS15_PATH } from './test-data.js';
export type { Ws15LedgerRow } from './ledger.js';
