import { isOmniposError } from '../core/index.js';
import { dayReportDocument, type DayReport } from '../operations/index.js';
import { receiptLines } from '../receipt/index.js';
import type { TefDialFields } from './codec.js';
import { head, receiptFields, refusal, STATUS, type Fields } from './answers.js';
import { supervisorPassword, undoPending, type TefDialDeps } from './operations.js';
import { identification } from './requests.js';

/**
 * `ADM`, the administrative operation (docs/tef-dial.md "ADM"). A payment manager opens its own
 * menu on the PDV's screen; no public layout carries the choice in the request file, and omnipos
 * has no screen on the PDV's machine. So an `ADM` is answered at once, as the convention answers
 * one, with receipt lines for the PDV to print:
 * - `ADM` alone: the day's report so far (read only);
 * - `ADM` with the supervisor's password (`900-000`, ours as for `CNC`): the day's close, with
 *   the supervisor's credential the local API asks for it (`POST /v1/day/close`).
 * Either way the pending rule runs first, as at every other request.
 */

/** `729-000` 1: the transaction needs no CNF (PayGo's "Status da confirmação"; docs/tef-dial.md). */
const NO_CONFIRMATION: [string, string] = ['729-000', '1'];

function reportAnswer(deps: TefDialDeps, req: TefDialFields, report: DayReport, text: string): Fields {
  const doc = dayReportDocument(report, { columns: deps.columns, environment: deps.environment });
  return [
    ...head(req),
    ['009-000', STATUS.approved],
    NO_CONFIRMATION,
    ...receiptFields(receiptLines(doc, deps.columns)),
    ['030-000', text],
  ];
}

/** The operator's text: what was done, and the pending sales the rule undid first. */
function withPending(text: string, undone: number): string {
  if (undone === 0) return text;
  return `${text}; ${undone} ${undone === 1 ? 'VENDA PENDENTE DESFEITA' : 'VENDAS PENDENTES DESFEITAS'}`;
}

/** The day's close, behind the supervisor's credential (the API's rule); refused answers otherwise. */
async function closeDay(deps: TefDialDeps, req: TefDialFields, password: string, undone: number): Promise<Fields> {
  const { day, supervisor } = deps;
  if (!day || !supervisor) return refusal(req, STATUS.refused, 'FECHAMENTO DO DIA NAO DISPONIVEL');
  try {
    supervisor.authorize({ password, client: 'tefdial' }, 'closing the day');
  } catch (e) {
    if (isOmniposError(e)) return refusal(req, STATUS.refused, `FECHAMENTO RECUSADO: ${e.message}`);
    throw e;
  }
  try {
    // The PDV prints the lines: the terminal's printer prints nothing for a TEF Dial close.
    const closed = await day.close(undefined, { print: false });
    const text = closed.alreadyClosed ? 'DIA JA FECHADO' : 'DIA FECHADO';
    return reportAnswer(deps, req, closed.report, withPending(text, undone));
  } catch (e) {
    if (isOmniposError(e, 'OPERATIONS_DAY_NOT_CLOSABLE'))
      return refusal(req, STATUS.refused, `FECHAMENTO RECUSADO: ${e.message}`);
    throw e;
  }
}

/** ADM: the day's report, or its close with the supervisor's password; the pending rule first. */
export async function adm(deps: TefDialDeps, req: TefDialFields): Promise<Fields> {
  identification(req);
  const undone = (await undoPending(deps)).length;
  const password = supervisorPassword(req);
  if (password !== '') return closeDay(deps, req, password, undone);
  if (!deps.day) return refusal(req, STATUS.refused, 'FUNCAO ADMINISTRATIVA NAO DISPONIVEL NESTE TERMINAL');
  return reportAnswer(deps, req, deps.day.report(), withPending('RELATORIO DO DIA', undone));
}
