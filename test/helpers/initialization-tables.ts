import sandbox from '../../tables/initialization/sandbox-tables.json' with { type: 'json' };

/** A deep copy of the sandbox's initialization answer (the tables plus the top-level members the sandbox adds). */
export function sandboxAnswer(): Record<string, unknown> {
  const { $comment: _c, ...tables } = structuredClone(sandbox) as Record<string, unknown>;
  void _c;
  return { MerchantId: '1234567890', TerminalId: '12345678', InitializationVersion: 1763769600001, ...tables };
}

export function seed(name: string): number {
  const s = Date.now() % 2 ** 31;
  console.log(`fast-check seed for "${name}": ${s}`);
  return s;
}
