import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readXml, textAt, writeXml, xml, XmlSyntaxError, type XmlElement } from '../../../src/core/xml.js';

/** The small strict XML codec of the webservice 1.5: what it reads, what it refuses, and write∘read = id. */

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
/** Text as the webservice carries it: any character a document may hold (Latin-1 and beyond). */
const text = fc
  .string({ unit: 'grapheme', maxLength: 20 })
  .map((s) =>
    [...s].filter((c) => c === '\n' || c === '\t' || (c >= ' ' && c !== '\ufffe' && c !== '\uffff')).join(''),
  );

const element: fc.Arbitrary<XmlElement> = fc.letrec<{ e: XmlElement }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small' },
    fc.record({
      name,
      attributes: fc.dictionary(name, text, { maxKeys: 3 }),
      children: fc.constant([] as XmlElement[]),
      text,
    }),
    fc.record({
      name,
      attributes: fc.dictionary(name, text, { maxKeys: 3 }),
      children: fc.array(tie('e'), { minLength: 1, maxLength: 4 }),
      text: fc.constant(''),
    }),
  ),
})).e;

describe('readXml ∘ writeXml', () => {
  it('gives back every tree (attributes, text with markup characters, nesting)', () => {
    fc.assert(
      fc.property(element, (e) => {
        expect(readXml(writeXml(e))).toEqual(e);
      }),
      { numRuns: 300 },
    );
  });

  it('writes only ISO-8859-1 characters, whatever the text', () => {
    fc.assert(
      fc.property(element, (e) => {
        expect([...writeXml(e)].every((c) => (c.codePointAt(0) as number) <= 0xff)).toBe(true);
      }),
    );
  });

  it('writes the declaration the manual shows (ws15:286) and empty elements closed', () => {
    expect(writeXml(xml('a', [xml('b'), xml('c', 'x & <y>')], { id: '1' }))).toBe(
      '<?xml version="1.0" encoding="ISO-8859-1"?><a id="1"><b/><c>x &amp; &lt;y&gt;</c></a>',
    );
  });
});

describe('readXml', () => {
  it('reads CDATA, comments, entities and character references', () => {
    const e = readXml(
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<!-- c --><erro xmlns="http://ecommerce.cbmp.com.br">' +
        '<codigo>001</codigo><mensagem><![CDATA[a <b> & c]]> &#233;&#x41;</mensagem><!-- ... --></erro>',
    );
    expect(e.attributes).toEqual({ xmlns: 'http://ecommerce.cbmp.com.br' });
    expect(textAt(e, 'codigo')).toBe('001');
    expect(textAt(e, 'mensagem')).toBe('a <b> & c éA');
  });

  it.each([
    ['a DOCTYPE (no entity expansion)', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['an unknown entity', '<a>&x;</a>'],
    ['a bare ampersand', '<a>a & b</a>'],
    ['a mismatched tag', '<a><b></a></b>'],
    ['an unclosed element', '<a><b></b>'],
    ['two roots', '<a/><b/>'],
    ['text after the root', '<a/>x'],
    ['a processing instruction', '<a><?pi x?></a>'],
    ['a repeated attribute', '<a x="1" x="2"/>'],
    ['an unquoted attribute', '<a x=1/>'],
    ['an empty document', '  '],
    ['"--" in a comment', '<a><!-- a -- b --></a>'],
    ['a character reference to NUL', '<a>&#0;</a>'],
  ])('refuses %s with its offset', (_what, src) => {
    expect(() => readXml(src)).toThrow(XmlSyntaxError);
  });

  it('never throws anything but XmlSyntaxError on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        try {
          readXml(s);
        } catch (e) {
          expect(e).toBeInstanceOf(XmlSyntaxError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
