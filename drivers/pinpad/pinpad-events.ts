import type { LossReason } from './link/link.js';

// What the pinpad driver tells its users besides the answers: where the link stands, its changes, the notifications.

/** Where the link stands. */
export type PinpadStatus = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'reconnecting' | 'closed';

/** Link state changes, as events. */
export type PinpadLinkEvent =
  | { readonly state: 'connected' }
  | { readonly state: 'disconnected'; readonly reason: LossReason }
  | { readonly state: 'reconnecting'; readonly attempt: number; readonly delayMs: number }
  | { readonly state: 'reconnected'; readonly attempt: number };

/** A notification (NTM, §2.3.3) the pinpad sent during a blocking command: text for the operator. */
export interface PinpadNotification {
  readonly command: string;
  readonly text: string;
}

export interface PinpadEvents {
  notification: [PinpadNotification];
  link: [PinpadLinkEvent];
}
