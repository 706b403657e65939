import type { HostSaleState } from '../../engine/index.js';

/**
 * The webservice 1.5's status and `erro` codes → the engine's words, each row citing the manual:
 * `ws15:N` is line N of `source/index.md` in DeveloperCielo/Webservice-1.5 at 41c9584 (the last
 * commit with the manual, 2017-11-03; the repository was archived after it), `xsd:N` line N of
 * `source/attachment/ecommerce.xsd` in its public fork hugomaiavieira/Webservice-1.5 at 40d8c6a.
 * A status not in the table is `unknown` (queried again, never guessed).
 */
export interface Ws15StatusRow {
  status: number;
  name: string;
  state: HostSaleState;
  /** Captured: final at the host with no confirmation of its own. */
  captured: boolean;
  source: string;
}

export const WS15_STATUSES: readonly Ws15StatusRow[] = [
  { status: 0, name: 'Transação Criada', state: 'pending', captured: false, source: 'ws15:783' },
  { status: 1, name: 'Transação em Andamento', state: 'pending', captured: false, source: 'ws15:784' },
  { status: 2, name: 'Transação Autenticada', state: 'pending', captured: false, source: 'ws15:785' },
  {
    status: 3,
    name: 'Transação não Autenticada',
    state: 'pending',
    captured: false,
    source: 'ws15:786; with `autorizar` 2 or 3 the service goes on to the authorization (ws15:527)',
  },
  {
    status: 4,
    name: 'Transação Autorizada',
    state: 'pending',
    captured: false,
    source: 'ws15:787: a pre-authorization, captured within 5 days or cancelled by the service (ws15:1376, 1440)',
  },
  { status: 5, name: 'Transação não Autorizada', state: 'declined', captured: false, source: 'ws15:788' },
  {
    status: 6,
    name: 'Transação Capturada',
    state: 'approved',
    captured: true,
    source: 'ws15:789: captured, no confirmation of its own; a partial cancellation leaves it 6 (ws15:1460)',
  },
  {
    status: 9,
    name: 'Transação Cancelada',
    state: 'undone',
    captured: false,
    source: 'ws15:790; a whole cancellation "altera o status da transação para 9 – Cancelada" (ws15:1460)',
  },
  { status: 10, name: 'Transação em Autenticação', state: 'pending', captured: false, source: 'ws15:791' },
  {
    status: 12,
    name: 'Transação em Cancelamento',
    state: 'unknown',
    captured: false,
    source: 'ws15:792: neither cancelled nor not; asked again',
  },
];

export function ws15Status(raw: string | undefined): Ws15StatusRow | undefined {
  if (raw === undefined || !/^[0-9]{1,2}$/.test(raw)) return undefined;
  return WS15_STATUSES.find((r) => r.status === Number(raw));
}

/**
 * What an `erro` answer means for the request that drew it: `refused` (the message was refused as a
 * whole: nothing was created or changed, ws15:495-496 "Erros sintáticos" / "Erros semânticos") or
 * `unknown` (a failure of the service during the processing, after which the manual says to query
 * or retry: the query decides). `not-found`: code 3, "Não existe transação para o identificador".
 */
export type Ws15ErrorMeaning = 'refused' | 'unknown' | 'not-found';

export interface Ws15ErrorRow {
  code: number;
  message: string;
  meaning: Ws15ErrorMeaning;
  source: string;
}

const row = (code: number, message: string, line: number, meaning: Ws15ErrorMeaning = 'refused'): Ws15ErrorRow => ({
  code,
  message,
  meaning,
  source: `ws15:${line}`,
});

/** "Tabela de erros de integração" (ws15:725-777), every row. */
export const WS15_ERRORS: readonly Ws15ErrorRow[] = [
  row(1, 'Mensagem inválida', 729),
  row(2, 'Credenciais inválidas', 730),
  row(3, 'Transação inexistente', 731, 'not-found'),
  row(8, 'Código de Segurança Inválido', 732),
  row(10, 'Inconsistência no envio do cartão', 733),
  row(11, 'Modalidade não habilitada', 734),
  row(12, 'Número de parcelas inválido', 735),
  row(13, 'Flag de autorização automática', 736),
  row(14, 'Autorização Direta inválida', 737),
  row(15, 'Autorização Direta sem Cartão', 738),
  row(16, 'Identificador, TID, inválido', 739),
  row(17, 'Código de segurança ausente', 740),
  row(18, 'Indicador de código de segurança inconsistente', 741),
  row(19, 'URL de Retorno não fornecida', 742),
  row(20, 'Status não permite autorização', 743),
  row(21, 'Prazo de autorização vencido', 744),
  row(22, 'Número de parcelas inválido', 745),
  row(25, 'Encaminhamento a autorização não permitido', 746),
  row(30, 'Status inválido para captura', 747),
  row(31, 'Prazo de captura vencido', 748),
  row(32, 'Valor de captura inválido', 749),
  // "Não foi possível realizar a captura ... Realizar nova tentativa": not captured, but the query decides.
  row(33, 'Falha ao capturar', 750, 'unknown'),
  row(34, 'Valor da taxa de embarque obrigatório', 751),
  row(35, 'Bandeira inválida para utilização da Taxa de Embarque', 752),
  row(36, 'Produto inválido para utilização da Taxa de Embarque', 753),
  row(40, 'Prazo de cancelamento vencido', 754),
  row(41, 'O status da transação não permite cancelamento', 755),
  row(42, 'Falha ao cancelar', 756, 'unknown'),
  row(43, 'Valor de cancelamento é maior que valor autorizado.', 757),
  row(51, 'Recorrência Inválida', 758),
  row(52, 'Token Inválido', 759),
  row(53, 'Recorrência não habilitada', 760),
  row(54, 'Transação com Token inválida', 761),
  row(55, 'Número do cartão não fornecido', 762),
  row(56, 'Validade do cartão não fornecido', 763),
  row(57, 'Erro inesperado gerando Token', 764, 'unknown'),
  row(61, 'Transação Recorrente Inválida', 765),
  row(77, 'XID não fornecido', 766),
  row(78, 'CAVV não fornecido', 767),
  row(86, 'XID e CAVV não fornecidos', 768),
  row(87, 'CAVV com tamanho divergente', 769),
  row(88, 'XID com tamanho divergente', 770),
  row(89, 'ECI com tamanho divergente', 771),
  row(90, 'ECI inválido', 772),
  row(95, 'Erro interno de autenticação', 773, 'unknown'),
  row(97, 'Sistema indisponível', 774, 'unknown'),
  row(98, 'Timeout', 775, 'unknown'),
  row(99, 'Erro inesperado', 776, 'unknown'),
  row(475, 'Timeout na operação de cancelamento', 777, 'unknown'),
];

/** An `erro` code as the answer writes it (`001`, ws15:487) → its row; an unpublished code has none (unknown). */
export function ws15Error(raw: string | undefined): Ws15ErrorRow | undefined {
  if (raw === undefined || !/^[0-9]{1,3}$/.test(raw)) return undefined;
  return WS15_ERRORS.find((r) => r.code === Number(raw));
}
