/**
 * Pix Automático in a BR Code: the recurrence template, an unreserved template (IDs 80 to 99) whose GUI (00) is
 * `br.gov.bcb.pix` and whose 25 is the location of the recurrence (a `rec` location), and the combinations the
 * Banco Central's "Manual de Padrões para Iniciação do Pix" gives a "QR Code composto": the recurrence alone, with
 * a static payment (a Pix key, 26.01) or with a dynamic one (a payment location, 26.25).
 */
import { mpmChild, qrError, type MpmObject } from './mpm.js';

/** The GUI of Pix (Banco Central, BR Code); compared without regard to case. */
export const PIX_GUI = 'br.gov.bcb.pix';

/** The recurrence of a Pix Automático code: where it sits and the location the payer's PSP fetches. */
export interface PixRecurrence {
  /** The unreserved template's id (80 to 99; the Banco Central's examples use 80). */
  readonly templateId: string;
  /** Its 25: the recurrence location, without `https://`. */
  readonly url: string;
}

/** True for the ids of the EMV unreserved templates (80 to 99). */
export function isUnreservedTemplateId(id: string): boolean {
  const n = Number(id);
  return /^\d\d$/.test(id) && n >= 80 && n <= 99;
}

/**
 * The Pix recurrence template of a payload, if any: the unreserved template whose 00 is the Pix GUI. Templates of
 * other GUIs are someone else's and are left alone. A Pix one without its location (25), with an empty one, or a
 * second Pix one, is QR_INVALID.
 */
export function pixRecurrenceOf(objects: readonly MpmObject[]): PixRecurrence | undefined {
  let found: PixRecurrence | undefined;
  for (const o of objects) {
    if (!isUnreservedTemplateId(o.id) || !o.children) continue;
    const gui = mpmChild(o.children, '00');
    if (!gui || gui.value.toLowerCase() !== PIX_GUI) continue;
    if (found)
      throw qrError(o.id, `a second Pix recurrence template (the first is ${found.templateId})`, {
        first: found.templateId,
      });
    const url = mpmChild(o.children, '25')?.value;
    if (url === undefined || url === '')
      throw qrError(`${o.id}.25`, 'missing (the recurrence location of Pix Automático)');
    found = { templateId: o.id, url };
  }
  return found;
}

/** What a Pix payload asks of the payer: a payment (static or dynamic), a recurrence, or both. */
export type PixComposition = 'static' | 'dynamic' | 'recurrence' | 'static+recurrence' | 'dynamic+recurrence';

/**
 * The composition of a payload from its key (26.01), payment location (26.25) and recurrence. A key and a payment
 * location together are refused: the manual's dynamic code carries only the GUI and the location in 26 (the key
 * lives behind the location), and a static code has no location. Neither of them is valid only beside a
 * recurrence (the "QR Code composto" carrying only the recurrence's parameters).
 */
export function pixCompositionOf(
  key: string | undefined,
  url: string | undefined,
  recurrence: PixRecurrence | undefined,
): PixComposition {
  if (key !== undefined && url !== undefined) {
    throw qrError(
      '26',
      'a Pix key (26.01) and a payment location (26.25) together: a dynamic code carries only 26.00 and 26.25',
    );
  }
  if (key === undefined && url === undefined) {
    if (!recurrence)
      throw qrError(
        '26',
        'expected a Pix key (26.01), a location URL (26.25) or a Pix Automático recurrence template (80)',
      );
    return 'recurrence';
  }
  const payment = url !== undefined ? 'dynamic' : 'static';
  return recurrence ? `${payment}+recurrence` : payment;
}
