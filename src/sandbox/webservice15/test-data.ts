import { SANDBOX_CREDENTIALS } from '../../../tables/sandbox-credentials.js';

/**
 * The manual's test data ("Testes e Homologação", ws15:1496-1532; `ws15:N` as fields.ts says):
 * its test store, its test cards and the rule by which the amount chooses the outcome.
 */

/**
 * "Chave de testes" (ws15:1522-1528): the one test store and its key (kept with the sandbox's other
 * published credentials, tables/sandbox-credentials.json, which a production terminal refuses).
 */
export const TEST_STORE = {
  affiliation: '1006993069',
  key: SANDBOX_CREDENTIALS.webservice15Key,
  source: 'ws15:1528',
} as const;

/** The test endpoint's path (ws15:1500: `https://qaseCommerce.cielo.com.br/servicos/ecommwsec.do`). */
export const WS15_PATH = '/servicos/ecommwsec.do';

export interface TestCard {
  bandeira: string;
  number: string;
  /** The table's `Validade` as `aaaamm` (the sandbox does not hold the card to it: the manual's own requests send 201508). */
  expiry: string;
  securityCode: string;
  /** The table's "Autenticação" column. */
  authentication: boolean;
  source: string;
}

/** "Dados para testes" (ws15:1506-1520), every row with a number (ws15:1517 has none). */
export const TEST_CARDS: readonly TestCard[] = [
  {
    bandeira: 'visa',
    number: '4012001037141112',
    expiry: '201805',
    securityCode: '123',
    authentication: true,
    source: 'ws15:1510',
  },
  {
    bandeira: 'mastercard',
    number: '5453010000066167',
    expiry: '201805',
    securityCode: '123',
    authentication: true,
    source: 'ws15:1511',
  },
  {
    bandeira: 'visa',
    number: '4012001038443335',
    expiry: '201805',
    securityCode: '123',
    authentication: false,
    source: 'ws15:1512',
  },
  {
    bandeira: 'amex',
    number: '376449047333005',
    expiry: '201805',
    securityCode: '1234',
    authentication: false,
    source: 'ws15:1514',
  },
  {
    bandeira: 'diners',
    number: '36490102462661',
    expiry: '201705',
    securityCode: '123',
    authentication: false,
    source: 'ws15:1515',
  },
  {
    bandeira: 'elo',
    number: '6362970000457013',
    expiry: '201805',
    securityCode: '123',
    authentication: false,
    source: 'ws15:1516',
  },
  {
    bandeira: 'discover',
    number: '6011020000245045',
    expiry: '201805',
    securityCode: '123',
    authentication: false,
    source: 'ws15:1518',
  },
  {
    bandeira: 'jcb',
    number: '3566007770004971',
    expiry: '201805',
    securityCode: '123',
    authentication: false,
    source: 'ws15:1519',
  },
  {
    bandeira: 'aura',
    number: '5078601912345600019',
    expiry: '201805',
    securityCode: '123',
    authentication: false,
    source: 'ws15:1520',
  },
];

export function testCard(number: string): TestCard | undefined {
  return TEST_CARDS.find((c) => c.number === number);
}

/**
 * "O valor do pedido ... deve terminar em '00', caso contrário, a autorização será sempre negada"
 * (ws15:1530): in the test environment the amount's last two digits choose the outcome.
 */
export function amountAuthorizes(amountCents: number): boolean {
  return amountCents % 100 === 0;
}

/** The ECI of a direct authorization: 7 for Visa, Diners, Discover, Elo, JCB; 0 for Mastercard, Aura (ws15:854-855). */
export function directEci(bandeira: string): string {
  return bandeira === 'mastercard' || bandeira === 'aura' ? '0' : '7';
}

/** "O prazo máximo para realizar a captura posterior é de 5 dias corridos" (ws15:1376). */
export const CAPTURE_DAYS = 5;
/** "O prazo de cancelamento é de até 300 dias para a modalidade crédito" (ws15:1459). */
export const CANCEL_DAYS = 300;
/** "Somente transações dos últimos 365 dias estão disponíveis" (ws15:1310, 1337). */
export const QUERY_DAYS = 365;
/** The smallest installment: R$ 5,00; a Visa sale below it is declined (ws15:393). */
export const MIN_INSTALLMENT_CENTS = 500;
