export { EvidenceRecorder, maskBody, type Exchange } from './evidence.js';
export { HomologationScript, parseScript, type HomologationStep } from './script.js';
export { runHomologation, type RunnerDeps, type RunSummary, type TestResult, type StepResult } from './runner.js';
