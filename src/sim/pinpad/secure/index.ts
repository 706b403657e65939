/** The virtual pinpad's side of the secure channel (ABECS 2.20 §5.2, §6.3.2). */
export { secureLayerOf, secureSession } from './layer.js';
export { openWithSecureChannel, wrapSessionKey } from './opn.js';
