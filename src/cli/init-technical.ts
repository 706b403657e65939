import { abecsIdByName } from '../../tables/pinpad/abecs-ids.js';
import type { GixResult } from '../adapters/index.js';
import { OmniposError } from '../core/index.js';
import type { TerminalTechnicalFacts } from '../engine/index.js';

/** The GIX data (§3.1.3.2) the technical parameters are made of. */
export const TECHNICAL_GIX_NAMES = [
  'PP_SERNUM',
  'PP_MODEL',
  'PP_MNNAME',
  'PP_CAPAB',
  'PP_SOVER',
  'PP_SPECVER',
  'PP_MANVERS',
  'PP_APPVERS',
  'PP_KRNLVER',
  'PP_CTLSVER',
  'PP_MCTLSVER',
  'PP_VCTLSVER',
] as const;

/** The GIX identifiers of {@link TECHNICAL_GIX_NAMES}. */
export function technicalGixIds(): number[] {
  return TECHNICAL_GIX_NAMES.map((n) => {
    const def = abecsIdByName(n);
    if (!def) throw new OmniposError('INTERNAL', `tables/pinpad/abecs-ids lacks ${n}`, { name: n });
    return def.id;
  });
}

/**
 * The terminal's technical facts from the pinpad's GIX answer (the acquirer backend turns them into
 * its host's fields: the omni one in src/acquirer/omni/technical.ts): PP_KRNLVER the EMV kernel,
 * PP_CTLSVER the contactless module, PP_MCTLSVER and PP_VCTLSVER the PayPass and payWave kernels,
 * PP_MODEL, PP_MNNAME, PP_SOVER (firmware), PP_MANVERS (the ABECS shared library), PP_SPECVER,
 * PP_APPVERS (the acquirer's application in the pinpad), PP_SERNUM; a contactless reader when
 * PP_CAPAB's first position is "1". A datum the pinpad leaves empty is undefined.
 */
export function technicalFacts(gix: GixResult, appVersion: string): TerminalTechnicalFacts {
  const get = (name: (typeof TECHNICAL_GIX_NAMES)[number]): string | undefined => {
    const v = gix.data[name];
    const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
    return s === '' ? undefined : s;
  };
  return {
    serialNumber: get('PP_SERNUM'),
    model: get('PP_MODEL'),
    manufacturer: get('PP_MNNAME'),
    firmware: get('PP_SOVER'),
    specificationVersion: get('PP_SPECVER'),
    sharedLibraryVersion: get('PP_MANVERS'),
    pinpadApplicationVersion: get('PP_APPVERS'),
    emvKernel: get('PP_KRNLVER'),
    contactlessModule: get('PP_CTLSVER'),
    payPassKernel: get('PP_MCTLSVER'),
    payWaveKernel: get('PP_VCTLSVER'),
    contactless: (get('PP_CAPAB') ?? '').startsWith('1'),
    paymentApplicationVersion: appVersion,
  };
}
