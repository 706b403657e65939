import { toAns } from './ans.js';
import { encodeMpm, qrError, type MpmInput } from './mpm.js';
import { normalizeAmount } from './padraoq/build.js';
import { PIX_GUI, isUnreservedTemplateId, pixCompositionOf } from './pix-recurrence.js';

/** What `buildPix` takes (BCB "Manual de Padrões para Iniciação do Pix", BR Code). */
export interface PixInput {
  /** 26.01, the Pix key of a static code; not with `url`. */
  readonly key?: string;
  /** 26.25, the location of a dynamic payload (without `https://`); not with `key`. */
  readonly url?: string;
  /**
   * The location of a Pix Automático recurrence (without `https://`), written in the recurrence template (80 by
   * default) beside the GUI: alone (a code that only asks for the recurrence) or with a key or `url` (a composite).
   */
  readonly recurrenceUrl?: string;
  /** The unreserved template id (80 to 99) of the recurrence; 80 by default. */
  readonly recurrenceTemplateId?: string;
  /** 26.02, text for the payer. */
  readonly info?: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  readonly amount?: string | number;
  /** 62.05; `***` when absent. */
  readonly txid?: string;
  readonly mcc?: string;
  readonly postalCode?: string;
  /** Writes 01 = `12` (single use). */
  readonly unique?: boolean;
}

/**
 * Builds a Pix BR Code, static (key), dynamic (url), Pix Automático (recurrenceUrl) or composite (recurrenceUrl with
 * a key or url); a key and a url together are refused as `parsePix` refuses them. Names and cities transliterated
 * to ANS, case kept, cut to 25 and 15.
 */
export function buildPix(input: PixInput): string {
  const templateId = input.recurrenceTemplateId ?? '80';
  if (!isUnreservedTemplateId(templateId))
    throw qrError(templateId, 'the recurrence template id must be 80 to 99', { templateId });
  if (input.recurrenceUrl === '')
    throw qrError(`${templateId}.25`, 'missing (the recurrence location of Pix Automático)');
  const recurrence = input.recurrenceUrl !== undefined ? { templateId, url: input.recurrenceUrl } : undefined;
  pixCompositionOf(input.key, input.url, recurrence);
  const objects: MpmInput[] = [{ id: '00', value: '01' }];
  if (input.unique) objects.push({ id: '01', value: '12' });
  const mai: MpmInput[] = [{ id: '00', value: PIX_GUI }];
  if (input.key !== undefined) mai.push({ id: '01', value: input.key });
  if (input.info !== undefined) mai.push({ id: '02', value: input.info });
  if (input.url !== undefined) mai.push({ id: '25', value: input.url });
  objects.push({ id: '26', children: mai }, { id: '52', value: input.mcc ?? '0000' }, { id: '53', value: '986' });
  if (input.amount !== undefined) objects.push({ id: '54', value: normalizeAmount(input.amount) });
  objects.push(
    { id: '58', value: 'BR' },
    { id: '59', value: toAns(input.merchantName, 25, { upper: false }) },
    { id: '60', value: toAns(input.merchantCity, 15, { upper: false }) },
  );
  if (input.postalCode !== undefined) objects.push({ id: '61', value: input.postalCode });
  objects.push({ id: '62', children: [{ id: '05', value: input.txid ?? '***' }] });
  if (recurrence)
    objects.push({
      id: templateId,
      children: [
        { id: '00', value: PIX_GUI },
        { id: '25', value: recurrence.url },
      ],
    });
  return encodeMpm(objects);
}
