/**
 * A small strict XML codec for the acquirer's XML webservice 1.5 (its client in src/acquirer and its
 * host model in src/sandbox both speak it, as both speak JSON through `JSON.parse`): elements,
 * attributes, text, CDATA, comments and the XML declaration — what the manual's messages use — and
 * nothing else. A DOCTYPE, a processing instruction other than the declaration, an unknown entity,
 * a mismatched or unclosed tag, text outside the root or a second root is refused with its offset.
 * Why not a library: docs/dependencies.md ("XML").
 */

/** One element: its attributes in document order, its child elements, and its text (CDATA included), joined. */
export interface XmlElement {
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: readonly XmlElement[];
  text: string;
}

export class XmlSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlSyntaxError';
    this.offset = offset;
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*/;
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string, at: number): string {
  return raw.replace(/&([^;&<]*);?/g, (whole, body: string, i: number) => {
    if (!whole.endsWith(';')) throw new XmlSyntaxError('an "&" that starts no entity', at + i);
    if (body in ENTITIES) return ENTITIES[body] as string;
    const num = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(body);
    if (!num) throw new XmlSyntaxError(`unknown entity &${body};`, at + i);
    const code = num[1] !== undefined ? parseInt(num[1], 16) : parseInt(num[2] as string, 10);
    if (code === 0 || code > 0x10ffff) throw new XmlSyntaxError(`character reference ${whole} out of range`, at + i);
    return String.fromCodePoint(code);
  });
}

class Reader {
  pos = 0;
  constructor(readonly src: string) {}

  fail(message: string, at = this.pos): never {
    throw new XmlSyntaxError(message, at);
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos] as string)) this.pos++;
  }

  until(end: string, what: string): string {
    const i = this.src.indexOf(end, this.pos);
    if (i < 0) this.fail(`unclosed ${what}`);
    const s = this.src.slice(this.pos, i);
    this.pos = i + end.length;
    return s;
  }

  name(): string {
    const m = NAME.exec(this.src.slice(this.pos, this.pos + 256));
    if (!m) this.fail('a name was expected');
    this.pos += m[0].length;
    return m[0];
  }

  /** Comments and white space between elements (the prolog, the epilogue). */
  misc(): void {
    for (;;) {
      this.skipSpace();
      if (this.startsWith('<!--')) {
        this.pos += 4;
        this.comment();
      } else if (this.startsWith('<!')) this.fail('a DOCTYPE or declaration is not accepted');
      else if (this.startsWith('<?')) this.fail('a processing instruction is not accepted');
      else return;
    }
  }

  comment(): void {
    const body = this.until('-->', 'comment');
    if (body.includes('--')) this.fail('"--" inside a comment');
  }

  attributes(): Record<string, string> {
    const out: Record<string, string> = {};
    for (;;) {
      const before = this.pos;
      this.skipSpace();
      if (this.startsWith('>') || this.startsWith('/>')) return out;
      if (this.pos === before) this.fail('white space was expected before an attribute');
      const at = this.pos;
      const n = this.name();
      this.skipSpace();
      if (this.src[this.pos] !== '=') this.fail(`"=" was expected after attribute ${n}`);
      this.pos++;
      this.skipSpace();
      const q = this.src[this.pos];
      if (q !== '"' && q !== "'") this.fail(`attribute ${n}'s value must be quoted`);
      this.pos++;
      const valueAt = this.pos;
      const raw = this.until(q, `attribute ${n}`);
      if (raw.includes('<')) this.fail(`"<" inside attribute ${n}`, valueAt);
      if (Object.hasOwn(out, n)) this.fail(`attribute ${n} repeated`, at);
      out[n] = decodeEntities(raw, valueAt);
    }
  }

  element(depth: number): XmlElement {
    if (depth > 64) this.fail('elements nested deeper than 64');
    if (this.src[this.pos] !== '<') this.fail('an element was expected');
    this.pos++;
    const name = this.name();
    const attributes = this.attributes();
    if (this.startsWith('/>')) {
      this.pos += 2;
      return { name, attributes, children: [], text: '' };
    }
    this.pos++; // '>'
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (this.pos >= this.src.length) this.fail(`element ${name} is not closed`);
      if (this.startsWith('</')) {
        this.pos += 2;
        const at = this.pos;
        const closing = this.name();
        if (closing !== name) this.fail(`</${closing}> closes <${name}>`, at);
        this.skipSpace();
        if (this.src[this.pos] !== '>') this.fail(`">" was expected to close ${name}`);
        this.pos++;
        return { name, attributes, children, text };
      }
      if (this.startsWith('<![CDATA[')) {
        this.pos += 9;
        text += this.until(']]>', 'CDATA section');
      } else if (this.startsWith('<!--')) {
        this.pos += 4;
        this.comment();
      } else if (this.startsWith('<!') || this.startsWith('<?')) this.fail('a declaration inside an element');
      else if (this.startsWith('<')) children.push(this.element(depth + 1));
      else {
        const at = this.pos;
        const next = this.src.indexOf('<', this.pos);
        const raw = this.src.slice(this.pos, next < 0 ? this.src.length : next);
        if (raw.includes(']]>')) this.fail('"]]>" in text', at);
        this.pos += raw.length;
        text += decodeEntities(raw, at);
      }
    }
  }
}

/** The declaration's `encoding`, when the document has one (`<?xml version="1.0" encoding="ISO-8859-1"?>`). */
export function xmlDeclaredEncoding(src: string): string | undefined {
  return /^\uFEFF?<\?xml\s[^?]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(src)?.[1];
}

/** Reads one document: an optional declaration, comments, one root element. Throws `XmlSyntaxError`. */
export function readXml(src: string): XmlElement {
  const r = new Reader(src.startsWith('\uFEFF') ? src.slice(1) : src);
  if (r.startsWith('<?xml')) {
    const decl = r.until('?>', 'XML declaration');
    if (!/^<\?xml\s+version\s*=\s*["']1\.[0-9]["']/.test(decl)) r.fail('the XML declaration has no version 1.x', 0);
  }
  r.misc();
  if (r.pos >= r.src.length) r.fail('no root element');
  const root = r.element(0);
  r.misc();
  if (r.pos < r.src.length) r.fail('content after the root element');
  return root;
}

function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;');
}

/** Characters ISO-8859-1 cannot carry, as character references (the reader gives them back). */
function latin1Safe(s: string): string {
  return s.replace(/[\u0100-\u{10ffff}]/gu, (c) => `&#${c.codePointAt(0) as number};`);
}

function writeElement(e: XmlElement): string {
  const attrs = Object.entries(e.attributes)
    .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`)
    .join('');
  const inner = escapeText(e.text) + e.children.map(writeElement).join('');
  return inner === '' ? `<${e.name}${attrs}/>` : `<${e.name}${attrs}>${inner}</${e.name}>`;
}

/**
 * Writes a document: the declaration naming ISO-8859-1 (the webservice's encoding) and the root,
 * compact; every character ISO-8859-1 lacks as a character reference, so `Buffer.from(s, 'latin1')`
 * loses nothing.
 */
export function writeXml(root: XmlElement): string {
  return latin1Safe(`<?xml version="1.0" encoding="ISO-8859-1"?>${writeElement(root)}`);
}

/** An element with text, or children (attributes optional): the writer's shorthand. */
export function xml(
  name: string,
  content: string | readonly XmlElement[] = '',
  attributes: Record<string, string> = {},
): XmlElement {
  return typeof content === 'string'
    ? { name, attributes, children: [], text: content }
    : { name, attributes, children: content, text: '' };
}

/** The first child named `name`, if any. */
export function child(e: XmlElement | undefined, name: string): XmlElement | undefined {
  return e?.children.find((c) => c.name === name);
}

/** The trimmed text of the child at `path` (names), if it exists. */
export function textAt(e: XmlElement | undefined, ...path: string[]): string | undefined {
  let cur = e;
  for (const p of path) cur = child(cur, p);
  return cur?.text.trim();
}
