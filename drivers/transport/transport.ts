/**
 * The one seam between a device driver and the hardware: serial (serialport, which covers USB CDC
 * pinpads) and TCP implement it; tests use the same implementations against the
 * virtual pinpad over a real pseudo-terminal or socket.
 *
 * Rules every implementation keeps:
 * - `open()` resolves once bytes can flow, or rejects with TRANSPORT_OPEN_FAILED. It never writes.
 * - `read()` resolves with the next chunk (at least one byte), in order; with `null` once `close()`
 *   was called by us. It rejects with TRANSPORT_DISCONNECTED when the device goes away on its own:
 *   EIO, port closed by the other end, device removed, socket reset. At most one `read()` pending.
 * - `write(bytes)` resolves when the bytes are handed to the OS (drained), and rejects with
 *   TRANSPORT_DISCONNECTED when they cannot be; a failed write is never retried here.
 * - `flush()` discards input not yet read (the OS buffer and chunks queued here).
 * - `close()` is idempotent, resolves even if the device is already gone, and settles a pending
 *   `read()` with `null`.
 * - Cancel: a transport knows no commands. Cancelling a command is a CAN byte the driver writes;
 *   closing is the only way to abandon a pending read or write (both then settle at once).
 * - Disconnect: once a transport reports TRANSPORT_DISCONNECTED it is dead; the driver creates a
 *   new one (same target) to reconnect. Nothing here retries or reconnects.
 */
export interface Transport {
  /** What it is attached to, for logs: `serial:/dev/ttyACM0`, `tcp:127.0.0.1:5000`. */
  readonly description: string;
  /**
   * False when the driver must not probe the idle link with CAN: a CAN costs the device something
   * (behind a vendor library each is a PP_Abort). Absent: probing is fine.
   */
  readonly idleProbe?: boolean;
  readonly isOpen: boolean;
  open(): Promise<void>;
  read(): Promise<Uint8Array | null>;
  write(bytes: Uint8Array): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** A port a transport could open, as listed without opening it. */
export interface PortInfo {
  readonly kind: 'serial' | 'usb' | 'tcp';
  readonly path: string;
  readonly vendorId?: number;
  readonly productId?: number;
  readonly manufacturer?: string;
  readonly serialNumber?: string;
  /** Stable udev names (/dev/serial/by-id/…) that point at this port. */
  readonly aliases?: readonly string[];
}

export type TransportErrorCode = 'TRANSPORT_OPEN_FAILED' | 'TRANSPORT_DISCONNECTED' | 'TRANSPORT_CLOSED';

/** Errors of the transport layer; the pinpad driver maps them to its own codes. */
export class TransportError extends Error {
  readonly code: TransportErrorCode;
  readonly context: Readonly<Record<string, unknown>>;
  constructor(
    code: TransportErrorCode,
    message: string,
    context: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
    this.code = code;
    this.context = context;
  }
}

export function isTransportError(e: unknown, code?: TransportErrorCode): e is TransportError {
  return e instanceof TransportError && (code === undefined || e.code === code);
}
