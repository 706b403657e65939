/**
 * The virtual devices' public surface (docs/architecture.md "Rings"): the virtual pinpad and the
 * virtual printer. Each device is also its own entry (`./pinpad/index.js`, `./printer/index.js`) for
 * a lazy `await import()`: the daemon loads only the device its configuration names.
 */
export * from './pinpad/index.js';
export * from './printer/index.js';
