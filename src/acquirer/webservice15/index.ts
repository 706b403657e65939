export { Webservice15CardNotPresent, type Ws15Post, type Ws15Settings, type Ws15TokenSaleOptions } from './backend.js';
export { Ws15Transport, type Ws15TransportOptions } from './transport.js';
export type { Ws15Exchange } from './outcomes.js';
export { Webservice15CnpDelivery } from './delivery.js';
