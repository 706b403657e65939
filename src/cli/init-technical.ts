import { abecsIdByName } from '../../tables/pinpad/abecs-ids.js';
import type { GixResult } from '../../drivers/pinpad/index.js';
import { OmniposError } from '../core/index.js';

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

/** What a member holds when the pinpad has nothing for it (the host refuses empty strings). */
export const NOT_PRESENT = '0';

/** `TechnicalParameter` of `POST /initialization` ("baixa técnica"). */
export interface TechnicalParameter {
  KernelEmvVersion: string;
  ContactlessModuleVersion: string;
  KernelPayPassVersion: string;
  KernelContactlessPayWaveVersion: string;
  HardwareModel: string;
  ManufacturerName: string;
  FirmwareVersion: string;
  BasicLibVersion: string;
  SpecificationVersion: string;
  AcquirerVersion: string;
  SimCardNumber: string;
  PaymentAppVersion: string;
  SerialNumber: string;
  PhysicalCharacteristics: 'PinPadWithChipReaderWithoutSamModule' | 'PinPadWithChipReaderWithoutSamAndContactless';
  ReturnDataInfo: string;
}

/**
 * The technical parameters from the pinpad's GIX answer, as docs/acquirer.md ("Initialization and
 * registration") maps them:
 * PP_KRNLVER → KernelEmvVersion, PP_CTLSVER → ContactlessModuleVersion, PP_MCTLSVER and
 * PP_VCTLSVER → the PayPass and payWave kernels, PP_MODEL, PP_MNNAME, PP_SOVER (firmware),
 * PP_MANVERS (the ABECS shared library: BasicLibVersion), PP_SPECVER, PP_APPVERS (the acquirer's
 * application in the pinpad), PP_SERNUM; `PhysicalCharacteristics` from PP_CAPAB (first position
 * "1": contactless reader). Every ABECS pinpad has a chip reader and none has a SAM module.
 * The terminal has no SIM card; the payment application is omnipos itself.
 */
export function technicalParameter(gix: GixResult, appVersion: string): TechnicalParameter {
  const get = (name: (typeof TECHNICAL_GIX_NAMES)[number]): string => {
    const v = gix.data[name];
    const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
    return s === '' ? NOT_PRESENT : s;
  };
  const contactless = get('PP_CAPAB').startsWith('1');
  return {
    KernelEmvVersion: get('PP_KRNLVER'),
    ContactlessModuleVersion: get('PP_CTLSVER'),
    KernelPayPassVersion: get('PP_MCTLSVER'),
    KernelContactlessPayWaveVersion: get('PP_VCTLSVER'),
    HardwareModel: get('PP_MODEL'),
    ManufacturerName: get('PP_MNNAME'),
    FirmwareVersion: get('PP_SOVER'),
    BasicLibVersion: get('PP_MANVERS'),
    SpecificationVersion: get('PP_SPECVER'),
    AcquirerVersion: get('PP_APPVERS'),
    SimCardNumber: NOT_PRESENT,
    PaymentAppVersion: appVersion,
    SerialNumber: get('PP_SERNUM'),
    PhysicalCharacteristics: contactless
      ? 'PinPadWithChipReaderWithoutSamAndContactless'
      : 'PinPadWithChipReaderWithoutSamModule',
    ReturnDataInfo: '00',
  };
}
