import type { TerminalTechnicalFacts } from '../../engine/index.js';

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
 * The technical parameters from the terminal's facts, as docs/acquirer.md ("Initialization and
 * registration") maps them: the EMV kernel → KernelEmvVersion, the contactless module →
 * ContactlessModuleVersion, the PayPass and payWave kernels, model, manufacturer, firmware, the
 * ABECS shared library (BasicLibVersion), the specification, the acquirer's application in the
 * pinpad (AcquirerVersion), the serial number; `PhysicalCharacteristics` from the contactless
 * reader. Every ABECS pinpad has a chip reader and none has a SAM module. The terminal has no SIM
 * card; the payment application is omnipos itself. A fact the pinpad lacks is {@link NOT_PRESENT}.
 */
export function technicalParameter(f: TerminalTechnicalFacts): TechnicalParameter {
  const given = (v: string | undefined): string => {
    const s = v?.trim() ?? '';
    return s === '' ? NOT_PRESENT : s;
  };
  return {
    KernelEmvVersion: given(f.emvKernel),
    ContactlessModuleVersion: given(f.contactlessModule),
    KernelPayPassVersion: given(f.payPassKernel),
    KernelContactlessPayWaveVersion: given(f.payWaveKernel),
    HardwareModel: given(f.model),
    ManufacturerName: given(f.manufacturer),
    FirmwareVersion: given(f.firmware),
    BasicLibVersion: given(f.sharedLibraryVersion),
    SpecificationVersion: given(f.specificationVersion),
    AcquirerVersion: given(f.pinpadApplicationVersion),
    SimCardNumber: NOT_PRESENT,
    PaymentAppVersion: given(f.paymentApplicationVersion),
    SerialNumber: given(f.serialNumber),
    PhysicalCharacteristics: f.contactless
      ? 'PinPadWithChipReaderWithoutSamAndContactless'
      : 'PinPadWithChipReaderWithoutSamModule',
    ReturnDataInfo: '00',
  };
}
