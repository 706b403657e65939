// The functions over the limit of eslint/rules/function-size.js (100 lines) on 2026-11-29, each with its length
// that day: `file:Function` -> lines. The list only shrinks: an entry may not grow, and one whose function fits
// the limit must go (the rule says so). Splitting one of these is welcome work; adding one is not.
export const FUNCTION_SIZE_EXCEPTIONS = {
  'src/adapters/pinpad-card.ts:PinpadCardPort.#read': 178,
  'src/cli/init.ts:run': 135,
  'src/cli/sale.ts:runCardSale': 105,
  'src/engine/qr/machine.ts:qrTransition': 135,
  'src/engine/void/machine.ts:voidTransition': 137,
  'src/fleet/metrics.ts:build': 110,
  'src/operations/homologation/runner.ts:runHomologation': 116,
  'src/sandbox/ecommerce.ts:createEcommerceSale': 107,
  'src/sandbox/sales.ts:createSale': 170,
  'src/sandbox/server.ts:buildSandbox': 232,
  'src/sandbox/wallet-cancel.ts:applyCancellation': 119,
  'src/sandbox/wallet.ts:WalletApi.pay': 185,
  'src/sim/pinpad/card/classic.ts:gcr': 118,
  'src/sim/pinpad/card/read.ts:gcx': 127,
};
