export { EvidenceRecorder, maskBody } from './evidence.js';
export { parseScript } from './script.js';
export { runHomologation } from './runner.js';
