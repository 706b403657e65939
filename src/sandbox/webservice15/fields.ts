/**
 * The webservice 1.5's message tables as data, written from the manual (never from our client):
 * each element in the order the schema's sequence gives it, whether it is required, its type,
 * size and domain. `ws15:N` is line N of `source/index.md` in DeveloperCielo/Webservice-1.5 at
 * 41c9584; `xsd:N` line N of `source/attachment/ecommerce.xsd` in hugomaiavieira/Webservice-1.5 at
 * 40d8c6a (the manual: "Todas as mensagens devem estar formatadas corretamente segundo
 * especificado no XML Schema eCommerce.xsd", ws15:335). Where the manual's table and the schema
 * differ, the stricter wins, said beside the row. A message that breaks a row is refused with
 * `erro` 1, "Mensagem inválida" (ws15:729).
 */
export interface FieldRule {
  name: string;
  required: boolean;
  /** A text element's whole value (after trimming the white space a pretty-printed message carries). */
  pattern?: RegExp;
  /** A node's children, in order. */
  children?: readonly FieldRule[];
  source: string;
}

const text = (name: string, required: boolean, pattern: RegExp, source: string): FieldRule => ({
  name,
  required,
  pattern,
  source,
});
const node = (name: string, required: boolean, children: readonly FieldRule[], source: string): FieldRule => ({
  name,
  required,
  children,
  source,
});

const BOOLEAN = /^(true|false)$/;

/** `dados-ec` (ws15:352-357, xsd:280-304): `numero` 1..20 digits, `chave` 1..100. */
const DADOS_EC = node(
  'dados-ec',
  true,
  [
    text('numero', true, /^[0-9]{1,20}$/, 'ws15:356, xsd:283-288'),
    text('chave', true, /^[\s\S]{1,100}$/, 'ws15:357, xsd:289-302'),
  ],
  'ws15:341',
);

/**
 * `dados-portador` (ws15:359-368, xsd:327-403). `numero`, `validade` and `indicador` are "Sim" in
 * the table but absent in the manual's own token examples (ws15:1034-1036): the schema makes them
 * optional and the rules (store.ts) require them when no token is sent.
 */
const DADOS_PORTADOR = node(
  'dados-portador',
  true,
  [
    text('numero', false, /^[0-9]{0,19}$/, 'ws15:363 (numeric, 19), xsd:330-335'),
    text('validade', false, /^[0-9]{6}$/, 'ws15:364 (numeric, 6, aaaamm); the schema allows 0..6 (xsd:336-345)'),
    text('indicador', false, /^[0129]$/, 'ws15:365 (0, 1, 2, 9), xsd:346-362'),
    text('codigo-seguranca', false, /^[0-9]{3,4}$/, 'ws15:366 (3..4), xsd:363-370'),
    text('nome-portador', false, /^[\s\S]{0,50}$/, 'ws15:367 (0..50)'),
    text('token', false, /^[\s\S]{0,100}$/, 'ws15:368 (0..100), xsd:709-714'),
  ],
  'ws15:342',
);

/** `dados-pedido` (ws15:370-383, xsd:149-206). */
const DADOS_PEDIDO = node(
  'dados-pedido',
  true,
  [
    text('numero', true, /^[a-zA-Z0-9]{1,20}$/, 'ws15:374 (1..20), xsd:693-699 ([a-zA-Z0-9]{1,20})'),
    text('valor', true, /^[0-9]{1,12}$/, 'ws15:375 (numeric, 1..12)'),
    text('moeda', true, /^[0-9]{3}$/, 'ws15:376 (numeric, 3)'),
    text(
      'data-hora',
      true,
      /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$/,
      'ws15:377 (19, aaaa-MM-ddTHH24:mm:ss), ws15:248',
    ),
    text('descricao', false, /^[\s\S]{0,1024}$/, 'ws15:378 (0..1024)'),
    text('idioma', false, /^(PT|EN|ES)$/, 'ws15:379, xsd:791-800'),
    text('taxa-embarque', false, /^[0-9]{1,9}$/, 'ws15:380 (numeric, 1..9), xsd:908-916'),
    text('soft-descriptor', false, /^[\sa-zA-Z0-9*]{0,13}$/, 'ws15:381 (0..13), xsd:701-707'),
  ],
  'ws15:343',
);

/** `forma-pagamento` (ws15:385-391, xsd:420-459). */
const FORMA_PAGAMENTO = node(
  'forma-pagamento',
  true,
  [
    text(
      'bandeira',
      true,
      /^(visa|mastercard|diners|discover|elo|amex|jcb|aura)$/,
      'ws15:389 (lower case, eight names)',
    ),
    text('produto', true, /^(1|2|A)$/, 'ws15:390 (1, 2, A)'),
    text('parcelas', true, /^[0-9]{1,2}$/, 'ws15:391 (numeric, 1..2)'),
  ],
  'ws15:344',
);

/** `requisicao-transacao` (ws15:337-350, xsd:4-99). */
const TRANSACAO = [
  DADOS_EC,
  DADOS_PORTADOR,
  DADOS_PEDIDO,
  FORMA_PAGAMENTO,
  text('url-retorno', true, /^[\s\S]{1,1024}$/, 'ws15:345 (1..1024; "null" for a direct authorization)'),
  text('autorizar', true, /^[0-4]$/, 'xsd:30-48 (0 to 4), ws15:517'),
  text('capturar', true, BOOLEAN, 'ws15:346'),
  text('campo-livre', false, /^[\s\S]{0,128}$/, 'ws15:347 (0..128)'),
  text('bin', false, /^[0-9]{6}$/, 'ws15:348 (numeric, 6)'),
  text('gerar-token', false, BOOLEAN, 'ws15:349'),
  text('avs', false, /^[\s\S]*$/, 'ws15:350'),
] as const;

const TID = text('tid', true, /^[0-9a-zA-Z]{20,40}$/, 'ws15:1331 (1..40); xsd:686-690 ([0-9a-zA-Z]{20,40})');
const VALOR = text('valor', false, /^[0-9]{1,12}$/, 'ws15:1473 (numeric, 1..12)');

/** Each request root the sandbox reads, with its children in order (xsd:405-417, 894). */
export const MESSAGES: Readonly<Record<string, readonly FieldRule[]>> = {
  'requisicao-transacao': TRANSACAO,
  'requisicao-captura': [
    TID,
    DADOS_EC,
    text('valor', false, /^[0-9]{1,12}$/, 'ws15:1398 (absent: the whole)'),
    text('anexo', false, /^[\s\S]*$/, 'xsd:108'),
    text('taxa-embarque', false, /^[0-9]{1,9}$/, 'ws15:1433, xsd:109'),
  ],
  'requisicao-cancelamento': [TID, DADOS_EC, VALOR],
  'requisicao-consulta': [TID, DADOS_EC],
  'requisicao-consulta-chsec': [
    text('numero-pedido', true, /^[a-zA-Z0-9]{1,20}$/, 'ws15:1361 (1..20), xsd:252-263'),
    DADOS_EC,
  ],
  'requisicao-token': [
    DADOS_EC,
    node(
      'dados-portador',
      false,
      [
        text('numero', false, /^[0-9]{0,19}$/, 'ws15:999 (numeric, 19)'),
        text('validade', false, /^[0-9]{6}$/, 'ws15:1000 (numeric, 6)'),
        text('nome-portador', false, /^[\s\S]{0,50}$/, 'ws15:1001 (0..50)'),
      ],
      'ws15:998 ("Opcional": without it, erro 55 or 56, ws15:762-763)',
    ),
  ],
  'requisicao-autorizacao-tid': [TID, DADOS_EC],
};

/** The `versao` attribute's domain (xsd:306-326). */
export const VERSIONS: ReadonlySet<string> = new Set(['1.0.0', '1.1.0', '1.1.1', '1.2.0', '1.2.1', '1.3.0', '1.4.0']);
