import { inspect } from 'node:util';

/** A secret read from a file. It never prints: not in JSON, not in logs, not in `inspect`. */
export class Secret {
  readonly #value: string;
  readonly source: string;

  constructor(value: string, source: string) {
    this.#value = value;
    this.source = source;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[secret]';
  }

  toJSON(): string {
    return `[secret from ${this.source}]`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}
