import { productResolver, type CardPinpad, refundCardPort } from '../adapters/index.js';
import type { Config } from '../config/index.js';
import { OmniposError } from '../core/index.js';
import { ensureSupervisorToken, readSupervisorHash, supervisorPasswordFile } from '../operations/index.js';
import {
  type OwnerDeps,
  VoidEngine,
  type VoidEvent,
  type QrDisplayPort,
  type AcquirerBackend,
  type VoidDeliveryPort,
  type WalletCancellationPort,
  SupervisorGate,
  type Lockout,
} from '../engine/index.js';
import type { TableSet } from '../initialization/index.js';
import type { ExpiryKey, MerchantOrderIds } from '../store/index.js';

/**
 * Card voids in the daemon: the supervisor's credentials in the state directory, the refund card
 * port on the daemon's pinpad, the void adapter on the omni client, and the VoidEngine.
 */

export interface VoidsDeps extends OwnerDeps {
  config: Config;
  orderIds: MerchantOrderIds;
  /** The acquirer backend's void ports: the create, the outbox's confirmation and undos, the wallet's cancellations. */
  acquirer: Pick<AcquirerBackend, 'voids' | 'walletCancellations'>;
  /** The daemon's pinpad (behind the secure channel). */
  pinpad: CardPinpad;
  tables: () => TableSet | undefined;
  /** The cash register's API token: the supervisor's must differ. */
  apiToken: string;
  /** The key of the card expiry's keyed hash (the void's card matches the sale's by it). */
  expiryKey: ExpiryKey;
  /** The outbox can refund Pix sales (e-commerce credentials configured). */
  pixRefunds?: boolean;
  /** Told of each supervisor lockout, to raise an alarm (never given the credential offered). */
  onLockout?: (lockout: Lockout, message: string) => void;
  /** The customer's display, where a wallet QR void's cancellation code is shown. */
  display?: QrDisplayPort;
  onEvent?: (event: VoidEvent) => void;
}

export interface Voids {
  engine: VoidEngine;
  /** The outbox's port for void confirmations and undos. */
  delivery: VoidDeliveryPort;
  /** The outbox's port for an ended cancellation code's watch (`void.code-watch`). */
  wallet: WalletCancellationPort;
  gate: SupervisorGate;
  supervisorTokenFile: string;
}

/** Builds the void engine from the daemon's parts. */
export function buildVoids(d: VoidsDeps): Voids {
  const values = d.config.values;
  const { token, file } = ensureSupervisorToken(values.stateDir);
  if (token === d.apiToken)
    throw new OmniposError(
      'CONFIG_INVALID',
      `${file}: the supervisor token must differ from the cash register's api-token`,
      { file },
    );
  const passwordFile = supervisorPasswordFile(d.config);
  const gate = new SupervisorGate({
    token,
    passwordHash: () => readSupervisorHash(passwordFile, d.log),
    // A lockout is an alarm (health, the webhook) and a warn line; never the credential offered.
    onLockout: (l) => {
      const message = `supervisor gate: ${l.client} locked out until ${new Date(l.until).toISOString()} after wrong credentials (lockout ${l.count} in a row)`;
      d.log.warn({ client: l.client, lockouts: l.count, until: new Date(l.until).toISOString() }, message);
      d.onLockout?.(l, message);
    },
  });
  const delivery = d.acquirer.voids;
  const card = refundCardPort({
    pinpad: d.pinpad,
    acquirerIndex: values.pinpad.acquirerIndex,
    pinKeySlot: values.pinpad.pinKeySlot,
    dataKeySlot: values.pinpad.dataKeySlot,
    resolveProduct: (q) => {
      const set = d.tables();
      return set ? productResolver(set)(q) : undefined;
    },
    log: d.log,
  });
  const wallet = {
    host: d.acquirer.walletCancellations,
    validityMs: values.qr.validitySeconds * 1000,
    watchMarginMs: values.qr.watchMarginSeconds * 1000,
    pollMs: values.qr.pollMs,
    ...(d.display ? { display: d.display } : {}),
  };
  const engine = new VoidEngine({
    ...d,
    card,
    host: delivery,
    supervisor: gate,
    tables: d.tables,
    wallet,
    ...(d.onEvent ? { onEvent: d.onEvent } : {}),
  });
  return { engine, delivery, wallet: wallet.host, gate, supervisorTokenFile: file };
}
