/**
 * The `erro` codes the host model answers, with the manual's message for each ("Tabela de erros de
 * integração", ws15:725-777; `ws15:N` as fields.ts says). Written here from the manual, not shared
 * with our client's table (src/acquirer never reaches the sandbox).
 */
export const ERRO = {
  invalidMessage: { code: 1, message: 'Mensagem inválida', source: 'ws15:729' },
  credentials: { code: 2, message: 'Credenciais inválidas', source: 'ws15:730' },
  noTransaction: { code: 3, message: 'Transação inexistente', source: 'ws15:731' },
  modeNotEnabled: { code: 11, message: 'Modalidade não habilitada', source: 'ws15:734' },
  installments: { code: 12, message: 'Número de parcelas inválido', source: 'ws15:735' },
  directInvalid: { code: 14, message: 'Autorização Direta inválida', source: 'ws15:737' },
  directWithoutCard: { code: 15, message: 'Autorização Direta sem Cartão', source: 'ws15:738' },
  securityCodeMissing: { code: 17, message: 'Código de segurança ausente', source: 'ws15:740' },
  indicatorInconsistent: { code: 18, message: 'Indicador de código de segurança inconsistente', source: 'ws15:741' },
  statusNoAuthorization: { code: 20, message: 'Status não permite autorização', source: 'ws15:743' },
  statusNoCapture: { code: 30, message: 'Status inválido para captura', source: 'ws15:747' },
  captureDeadline: { code: 31, message: 'Prazo de captura vencido', source: 'ws15:748' },
  captureValue: { code: 32, message: 'Valor de captura inválido', source: 'ws15:749' },
  cancelDeadline: { code: 40, message: 'Prazo de cancelamento vencido', source: 'ws15:754' },
  statusNoCancel: { code: 41, message: 'O status da transação não permite cancelamento', source: 'ws15:755' },
  cancelValue: { code: 43, message: 'Valor de cancelamento é maior que valor autorizado.', source: 'ws15:757' },
  recurrenceInvalid: { code: 51, message: 'Recorrência Inválida', source: 'ws15:758' },
  tokenInvalid: { code: 52, message: 'Token Inválido', source: 'ws15:759' },
  tokenTransactionInvalid: { code: 54, message: 'Transação com Token inválida', source: 'ws15:761' },
  tokenWithoutNumber: { code: 55, message: 'Número do cartão não fornecido', source: 'ws15:762' },
  tokenWithoutExpiry: { code: 56, message: 'Validade do cartão não fornecido', source: 'ws15:763' },
  recurrentInvalid: { code: 61, message: 'Transação Recorrente Inválida', source: 'ws15:765' },
} as const;

export type ErroName = keyof typeof ERRO;

/** A refusal: the published code and the detail the host adds (ws15:498: "informações adicionais"). */
export class Ws15Refusal extends Error {
  readonly erro: ErroName;
  constructor(erro: ErroName, detail: string) {
    super(`${ERRO[erro].message}: ${detail}`);
    this.erro = erro;
  }
}
