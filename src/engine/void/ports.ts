/** The void ports live with the engine's other acquirer ports (src/engine/ports.ts). */
export type { VoidDeliveryPort, VoidHostPort, WalletCancellationPort } from '../ports.js';
