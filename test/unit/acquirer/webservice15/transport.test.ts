import { describe, expect, it } from 'vitest';
import { answerText, formBody } from '../../../../src/acquirer/webservice15/transport.js';

/** The form field `mensagem` in ISO-8859-1 (ws15:263-269, 286), and the answer's decoding. */
describe('formBody and answerText', () => {
  it('percent-encodes each Latin-1 byte, not UTF-8', () => {
    expect(formBody('<a>Conceição & 1+1</a>').toString('latin1')).toBe(
      'mensagem=%3Ca%3EConcei%E7%E3o+%26+1%2B1%3C%2Fa%3E',
    );
  });

  it('reads ISO-8859-1 by default and UTF-8 when the header or the declaration says so', () => {
    expect(answerText(Buffer.from('<m>Transação</m>', 'latin1'), 'text/xml')).toBe('<m>Transação</m>');
    expect(answerText(Buffer.from('<m>Transação</m>', 'utf8'), 'text/xml; charset=UTF-8')).toBe('<m>Transação</m>');
    const utf8 = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><m>ção</m>', 'utf8');
    expect(answerText(utf8, undefined)).toContain('ção');
  });
});
