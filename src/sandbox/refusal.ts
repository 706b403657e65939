/** Thrown by handlers to answer at once (auth, validation, not found). */
export class Refusal extends Error {
  readonly answer: { status: number; body: unknown; headers?: Record<string, string> };

  constructor(status: number, body: unknown, headers?: Record<string, string>) {
    super(`HTTP ${status}`);
    this.answer = { status, body, ...(headers ? { headers } : {}) };
  }
}
