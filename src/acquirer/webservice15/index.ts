export { Webservice15CardNotPresent } from './backend.js';
export { Ws15Transport } from './transport.js';
export type { Ws15Exchange } from './outcomes.js';
export { Webservice15CnpDelivery } from './delivery.js';
