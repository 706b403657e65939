/** Operations' public surface (docs/architecture.md "Rings"): the day and its close, alarms, homologation runs, the support bundle, the supervisor's credentials. */
export * from './alarms/index.js';
export * from './day/index.js';
export * from './homologation/index.js';
export * from './support/index.js';
export * from './retention/index.js';
export * from './supervisor/index.js';
