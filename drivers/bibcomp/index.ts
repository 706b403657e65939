export { BibcompTransport, type BibcompTransportOptions } from './transport.js';
export { loadBibcomp, PPCOMP, REQUIRED_FUNCTIONS, MAX_PKTDATA, type BibcompCalls, type GenericPoll } from './library.js';
export { bibcompLibrary } from './registry.js';
