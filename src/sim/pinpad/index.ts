/** The virtual pinpad: product code (the embedded default) and what the tests talk to. */
export { VirtualPinpad, type VirtualPinpadOptions } from './server.js';
export { type SimContext, type SimHandler, type SimState } from './engine.js';
export { TIMING_NAMES, TIMING_SCALE, type TimingName } from './timing.js';
export { DEFAULT_PROFILE } from './profile.js';
export { CLASSIC_HANDLERS } from './handlers/index.js';
export { serveControl, type ControlPort } from './control.js';
// --- card commands: the deck, the card state, the tables held ---
export { cardSim, type CardChoice } from './card/index.js';
