import { card } from '../../drivers/pinpad/index.js';
import { CHIP_TAGS_SECOND as TAGS_SECOND } from '../core/index.js';
import { decodeTlv, encodeTlv } from '../emv/index.js';
import { hexOf, tlvMap } from './pinpad-card-kit.js';
import type { PinpadCardOptions } from './pinpad-card-options.js';

/** What the card said of the host's answer (FCX), in the engine's words. */
export interface ChipFinish {
  card: 'approved' | 'declined' | 'failed';
  emv?: Record<string, string>;
  reason?: string;
}

/**
 * The host's answer to the open chip transaction (FCX): its authorization response code (tag 8A)
 * and the rest of its EMV data (issuer authentication, scripts), within FCX's deadline.
 * `tapped`: whether the open transaction is a contactless card's, which has left (§3.7.4 note 2).
 */
export async function finishChipOnPinpad(
  opts: PinpadCardOptions,
  tapped: () => boolean,
  decision: 'approved' | 'declined' | 'no-communication' | 'aborted',
  host: { authorizationCode?: string; emvResponse?: string },
): Promise<ChipFinish> {
  let arc: string | undefined;
  let hostTlv: Uint8Array | undefined;
  if (host.emvResponse) {
    try {
      const objs = decodeTlv(host.emvResponse);
      const a = objs.find((o) => o.tag === '8A');
      if (a) arc = Buffer.from(a.value).toString('latin1');
      const rest = objs.filter((o) => o.tag !== '8A').map((o) => ({ tag: o.tag, value: Uint8Array.from(o.value) }));
      if (rest.length) hostTlv = encodeTlv(rest);
    } catch {
      // an answer the card cannot use: FCX without it
    }
  }
  const outcome = decision === 'approved' ? 'approved' : decision === 'declined' ? 'declined' : 'no-communication';
  const signal = AbortSignal.timeout(opts.finishTimeoutMs ?? (opts.timeoutS ?? 60) * 1000);
  try {
    const r = await opts.pinpad.run(
      card.FCX,
      {
        outcome,
        ...(outcome !== 'no-communication' ? { arc: arc ?? (outcome === 'approved' ? '00' : '05') } : {}),
        ...(hostTlv ? { emvData: hostTlv } : {}),
        tags: TAGS_SECOND,
      },
      { signal },
    );
    const emv = tlvMap(r.emvData);
    if (r.issuerScriptResults) emv['9F5B'] = hexOf(r.issuerScriptResults);
    return { card: r.decision, emv };
  } catch (e) {
    const reason = signal.aborted
      ? `FCX took longer than its deadline (${(e as Error).message})`
      : (e as Error).message;
    // §3.7.4 note 2: a contactless card has left; its FCX cancelled or failed, the host's answer
    // stands (the pinpad returns only EOT, no PP_FCXRES). A contact chip's failure is the card's.
    if (tapped()) return { card: outcome === 'approved' ? 'approved' : 'declined', emv: {}, reason };
    return { card: 'failed', reason };
  }
}
