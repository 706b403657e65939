/** True when the refusal is about the request's form (a field), not the state of a sale (302, 307-310, 318). */
export function malformed(body: unknown): boolean {
  const list = Array.isArray(body) ? body : [body];
  return list.some((e) => {
    if (!e || typeof e !== 'object') return false;
    const code = (e as Record<string, unknown>).Code ?? (e as Record<string, unknown>).code;
    if (typeof code === 'string') return code.startsWith('412.1');
    return typeof code === 'number' && ![302, 303, 307, 308, 309, 310, 318].includes(code);
  });
}

/** The refusal's messages, joined, for the ledger's problem line (at most 600 characters). */
export function refusalText(body: unknown): string {
  const list = Array.isArray(body) ? body : [body];
  return list
    .map((e) => {
      if (!e || typeof e !== 'object') return '';
      const r = e as Record<string, unknown>;
      const text = r.Message ?? r.description ?? r.error;
      return typeof text === 'string' ? text : '';
    })
    .join(' | ')
    .slice(0, 600);
}
