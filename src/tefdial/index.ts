/**
 * The TEF Dial file interface (docs/tef-dial.md): the codec of `AAA-BBB = value` files and the
 * interface that answers a PDV's `IntPos.001` through the engines the local API drives.
 */
export { TefDialInterface } from './interface.js';
export type { TefDialDeps } from './operations.js';
