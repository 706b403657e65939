import { describe, expect, it } from 'vitest';
import { NOT_PRESENT, technicalParameter } from '../../../../src/acquirer/index.js';
import { PHYSICAL_CHARACTERISTICS } from '../../../../src/sandbox/sale-validate.js';

/** The terminal's technical facts (the engine's words) as the omni host's `TechnicalParameter` of POST /initialization. */
describe("omni technical parameters from the terminal's facts", () => {
  it('each fact to its member; no SIM card; the payment application is omnipos', () => {
    expect(
      technicalParameter({
        serialNumber: 'SN123',
        model: 'M1',
        manufacturer: 'ACME',
        firmware: 'OS9',
        specificationVersion: '2.12',
        sharedLibraryVersion: 'LIB 1',
        pinpadApplicationVersion: 'APP 2',
        emvKernel: 'K4',
        contactlessModule: 'C1',
        payPassKernel: 'MC3',
        payWaveKernel: 'VW2',
        contactless: true,
        paymentApplicationVersion: '0.1.0',
      }),
    ).toEqual({
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

  it('a fact the pinpad lacks (or left blank) is never an empty string; without contactless, a chip reader without SAM', () => {
    const t = technicalParameter({ serialNumber: ' ', contactless: false, paymentApplicationVersion: '1' });
    expect(t.SerialNumber).toBe(NOT_PRESENT);
    expect(t.KernelEmvVersion).toBe(NOT_PRESENT);
    expect(t.PhysicalCharacteristics).toBe('PinPadWithChipReaderWithoutSamModule');
    expect(PHYSICAL_CHARACTERISTICS).toContain(t.PhysicalCharacteristics);
    expect(Object.values(t).every((v) => v.length > 0)).toBe(true);
  });
});
