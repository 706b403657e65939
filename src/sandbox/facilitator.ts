/**
 * `Payment.PaymentFacilitator` of a terminal sale (CONECTA_PT 2154: "Para operação de Subadquirente
 * é obrigatório o envio dos dados indicados no objeto PaymentFacilitator"; its fields, types and
 * sizes, every one "Sim", at CONECTA_PT 2248-2259). The manual's own example (CONECTA_PT 2196-2210)
 * sends the Integer fields as strings of digits ("Mcc": "8999"), so both spellings are read.
 */
const FIELDS: readonly (readonly [path: string, type: 'Integer' | 'String', size: number])[] = [
  ['EstablishmentCode', 'Integer', 10],
  ['TerminalAcquirerId', 'String', 8],
  ['SubEstablishment.EstablishmentCode', 'String', 15],
  ['SubEstablishment.Mcc', 'Integer', 4],
  ['SubEstablishment.Address', 'String', 50],
  ['SubEstablishment.City', 'String', 50],
  ['SubEstablishment.State', 'String', 2],
  ['SubEstablishment.PostalCode', 'Integer', 9],
  ['SubEstablishment.PhoneNumber', 'String', 13],
  ['SubEstablishment.CountryCode', 'String', 3],
  ['SubEstablishment.DocumentType', 'String', 4],
  ['SubEstablishment.DocumentNumber', 'String', 14],
];

function at(obj: unknown, path: string): unknown {
  let v: unknown = obj;
  for (const k of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

function fieldProblem(value: unknown, type: 'Integer' | 'String', size: number): string | undefined {
  if (value === undefined || value === null || value === '') return 'is required';
  const text = typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : value;
  if (typeof text !== 'string') return type === 'Integer' ? 'must be an integer' : 'must be a string';
  if (type === 'Integer' && !/^\d+$/.test(text)) return 'must be an integer';
  return text.length > size ? `at most ${size} characters` : undefined;
}

/**
 * The problems of a sale's PaymentFacilitator: checked whenever it is sent, and required for a
 * merchant the scenario flags as a sub-acquirer (scenario `subAcquirers`).
 */
export function facilitatorProblems(payment: unknown, required: boolean): string[] {
  const node = at(payment, 'PaymentFacilitator');
  const base = 'Payment.PaymentFacilitator';
  if (node === undefined || node === null)
    return required ? [`${base}: is required for a sub-acquirer's sale (CONECTA_PT 2154)`] : [];
  if (typeof node !== 'object' || Array.isArray(node)) return [`${base}: must be an object`];
  const problems: string[] = [];
  for (const [path, type, size] of FIELDS) {
    const p = fieldProblem(at(node, path), type, size);
    if (p) problems.push(`${base}.${path}: ${p}`);
  }
  return problems;
}
