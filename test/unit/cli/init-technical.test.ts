import { describe, expect, it } from 'vitest';
import { NOT_PRESENT, technicalParameter as fromFacts } from '../../../src/acquirer/index.js';
import { TECHNICAL_GIX_NAMES, technicalFacts, technicalGixIds } from '../../../src/cli/init-technical.js';
import { PHYSICAL_CHARACTERISTICS } from '../../../src/sandbox/sale-validate.js';

const gix = (data: Record<string, string>) => ({
  data,
  entries: Object.entries(data).map(([name, value]) => ({ name, value })),
});

/** GIX → the engine's technical facts (this command) → the omni host's TechnicalParameter (its backend). */
const technicalParameter = (g: ReturnType<typeof gix>, appVersion: string) => fromFacts(technicalFacts(g, appVersion));

describe('technical parameters from GIX', () => {
  it('maps each PP_ datum to its TechnicalParameter member', () => {
    const t = technicalParameter(
      gix({
        PP_SERNUM: 'SN123 ',
        PP_MODEL: 'M1',
        PP_MNNAME: 'ACME',
        PP_CAPAB: '1111900000',
        PP_SOVER: 'OS9',
        PP_SPECVER: '2.12',
        PP_MANVERS: 'LIB 1',
        PP_APPVERS: 'APP 2',
        PP_KRNLVER: 'K4',
        PP_CTLSVER: 'C1',
        PP_MCTLSVER: 'MC3',
        PP_VCTLSVER: 'VW2',
      }),
      '0.1.0',
    );
    expect(t).toEqual({
      KernelEmvVersion: 'K4',
      ContactlessModuleVersion: 'C1',
      KernelPayPassVersion: 'MC3',
      KernelContactlessPayWaveVersion: 'VW2',
      HardwareModel: 'M1',
      ManufacturerName: 'ACME',
      FirmwareVersion: 'OS9',
      BasicLibVersion: 'LIB 1',
      SpecificationVersion: '2.12',
      AcquirerVersion: 'APP 2',
      SimCardNumber: NOT_PRESENT,
      PaymentAppVersion: '0.1.0',
      SerialNumber: 'SN123',
      PhysicalCharacteristics: 'PinPadWithChipReaderWithoutSamAndContactless',
      ReturnDataInfo: '00',
    });
  });

  it('a pinpad without contactless: no contactless kernels, a chip reader without SAM; absent data is never empty', () => {
    const t = technicalParameter(gix({ PP_SERNUM: 'S', PP_CAPAB: '0111900000', PP_KRNLVER: '  ' }), '1');
    expect(t.PhysicalCharacteristics).toBe('PinPadWithChipReaderWithoutSamModule');
    expect(PHYSICAL_CHARACTERISTICS).toContain(t.PhysicalCharacteristics);
    expect(t.ContactlessModuleVersion).toBe(NOT_PRESENT);
    expect(t.KernelEmvVersion).toBe(NOT_PRESENT);
    expect(Object.values(t).every((v: string) => v.length > 0)).toBe(true);
  });

  it('asks GIX for each datum it maps, by its §3.1.3.2 identifier', () => {
    const ids = technicalGixIds();
    expect(ids).toHaveLength(TECHNICAL_GIX_NAMES.length);
    expect(ids).toContain(0x8001); // PP_SERNUM
    expect(ids).toContain(0x8010); // PP_KRNLVER
    expect(ids).toContain(0x8013); // PP_VCTLSVER
  });
});
