/** The virtual pinpad: product code (the embedded default) and what the tests talk to. */
export { VirtualPinpad, type VirtualPinpadOptions } from './server.js';
export {
  SimEngine,
  Refusal,
  CLEAR_LAYER,
  type PacketLayer,
  type SimCommand,
  type SimContext,
  type SimHandler,
  type SimState,
  type EngineOptions,
} from './engine.js';
export { FaultSet, FAULT_KINDS, DISCONNECT_STEPS, type Fault, type FaultKind, type DisconnectStep } from './faults.js';
export { timingFor, TIMING_NAMES, TIMING_SCALE, PPC930_MS, type TimingName, type TimingProfile } from './timing.js';
export { DEFAULT_PROFILE, profile, type VirtualPinpadProfile } from './profile.js';
export { CLASSIC_HANDLERS, ABECS_HANDLERS, handlersFor } from './handlers/index.js';
export { serveControl, parseControl, type ControlCommand, type ControlPort } from './control.js';
// --- card commands: the deck, the card state, the tables held ---
export {
  cardSim,
  CardDeck,
  findCard,
  deckListing,
  SimTables,
  SimDukpt,
  CARD_ABECS_HANDLERS,
  CARD_CLASSIC_HANDLERS,
  type CardChoice,
  type CardSim,
  type Via,
} from './card/index.js';
