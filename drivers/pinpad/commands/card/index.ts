/**
 * The pinpad's card commands (ABECS 2.20 §3.3, §3.4, §3.5, §3.7): each a CommandSpec run by
 * `Pinpad.run`. Card data reaches the terminal masked (GCX, CEX) or encrypted inside the pinpad
 * (GTK, EBX, GPN, GOX); nothing here logs.
 */
export {
  GCX,
  decodeGcxData,
  panMaskParam,
  DEFAULT_PAN_MASK,
  type GcxRequest,
  type GcxResult,
  type AidTableRef,
  type PanMask,
} from './gcx.js';
export { GTK, type GtkRequest, type GtkResult, type EncryptedField } from './gtk.js';
export { GOX, riskParam, type GoxRequest, type GoxResult, type RiskParameters } from './gox.js';
export { FCX, type FcxRequest, type FcxResult } from './fcx.js';
export { GPN, RMC, type GpnRequest, type PinBlockResult } from './pin.js';
export { EBX, typedPanBlock, wipe, type EbxRequest, type EbxResult } from './ebx.js';
export { CEX, MNU, type CexRequest, type CexResult, type MnuRequest } from './events.js';
export {
  TLI,
  TLR,
  TLE,
  startTableLoad,
  loadTables,
  type TliRequest,
  type TlrRequest,
  type SpecRunner,
} from './tables.js';
export { MLI, MLR, MLE, DSI, mediaInfo, mediaCrc, showImage, type MliRequest } from './media.js';
export { nextAfterGcx, readCardWithRules, goxOutcome, type GcxNext, type ReadCardOptions } from './contactless.js';
export { maskPanField, incompleteTrack1, incompleteTrack2, holdsClearPan } from './mask.js';
// the classic (obsolete) card commands, and the card port's pinpad that refuses card sales on a classic pinpad
export { GCR, decodeGcr, type GcrRequest, type GcrResult } from './classic/gcr.js';
export { GOC, FNC, GTS, type GocRequest, type FncRequest } from './classic/chip.js';
export { ClassicCardPinpad, CLASSIC_TRACK_REFUSAL, type ClassicRunner } from './classic/flow.js';
export { ClearCardData } from './classic/tracks.js';
export { CKE, type CkeRequest, type CkeResult } from './classic/events.js';
