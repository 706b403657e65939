/** The virtual pinpad: product code (the embedded default) and what the tests talk to. */
export { VirtualPinpad, type VirtualPinpadOptions } from './server.js';
export { SimEngine, type SimCommand, type SimContext, type SimHandler, type SimState, type EngineOptions } from './engine.js';
export { FaultSet, type Fault, type FaultKind } from './faults.js';
export { DEFAULT_PROFILE, profile, type VirtualPinpadProfile } from './profile.js';
export { CLASSIC_HANDLERS, ABECS_HANDLERS, handlersFor } from './handlers/index.js';
export { serveControl, parseControl, type ControlCommand } from './control.js';
