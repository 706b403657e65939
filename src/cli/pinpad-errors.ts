import { isPinpadError, type PinpadErrorCode } from '../../drivers/pinpad/index.js';
import { isTransportError } from '../../drivers/transport/index.js';
import { OmniposError, type ErrorCode } from '../core/index.js';

/** Compile-time proof that every driver code is in the catalogue under the same name. */
type Missing = Exclude<PinpadErrorCode, ErrorCode>;
const _everyPinpadCodeIsCatalogued: Missing extends never ? true : Missing = true;
void _everyPinpadCodeIsCatalogued;

/**
 * Maps what the pinpad driver and transports throw to OmniposError (same code, message and
 * context); anything else passes through unchanged.
 */
export function fromDriverError(e: unknown): unknown {
  if (isPinpadError(e)) return new OmniposError(e.code, e.message, e.context, { cause: e });
  if (isTransportError(e)) {
    return new OmniposError(
      e.code === 'TRANSPORT_OPEN_FAILED' ? 'PINPAD_NOT_FOUND' : 'PINPAD_DISCONNECTED',
      e.message,
      e.context,
      { cause: e },
    );
  }
  return e;
}
