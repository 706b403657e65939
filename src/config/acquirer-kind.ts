import type { z } from 'zod';

/** What a kind's keys are built with (schema.ts passes its zod and the common fields: fields.ts). */
export interface KeyFields {
  readonly z: typeof z;
  readonly httpUrl: z.ZodType<string>;
  readonly filePath: z.ZodType<string>;
  readonly port: z.ZodType<number>;
}

/** A credential the sandbox host publishes (tables/sandbox-credentials.json): refused in production. */
export type SandboxCredential = 'clientId' | 'clientSecret' | 'merchantId' | 'merchantKey' | 'webservice15Key';

/**
 * One of a kind's secret files: the key naming the file, the name its secret is read under
 * (`Config.secrets.acquirer.<kind>.<secret>`), and the sandbox's published value of it.
 */
export interface KindSecret {
  readonly key: string;
  readonly secret: string;
  readonly sandbox?: SandboxCredential;
}

/**
 * What the configuration's guards need to know of one acquirer kind's own keys (`acquirer.<kind>`,
 * the file acquirer-<kind>.ts, which imports zod's types only: `omnipos api token` loads these rules without zod). Key names are relative to `acquirer.<kind>`.
 * Methods, so that a kind's rules on its own keys stand for rules on any keys (acquirer.ts reads
 * the configured kind's keys as a plain record).
 */
export interface AcquirerConfigKind<T, S extends z.ZodType = z.ZodType> {
  /** The kind's keys, a strict object (an unknown key refused by name), built with schema.ts's zod. */
  keys(fields: KeyFields): S;
  /**
   * Every address the kind sends to, by key: the bearer tokens and keys travel there, so production
   * refuses a loopback one, and outside the sandbox each must be https.
   */
  addresses(keys: T): Readonly<Record<string, string | undefined>>;
  /**
   * Its secret files (`as const`: `Config.secrets.acquirer.<kind>` is typed from this list, each secret
   * present where its key is required, optional where the key is).
   */
  readonly secrets: readonly KindSecret[];
  /** Keys whose value is refused in production when it is the sandbox's published one. */
  sandboxIdentities(keys: T): readonly { key: string; value: string | undefined; sandbox: SandboxCredential }[];
  /** Keys the sandbox may leave out and the real host needs, each with why. */
  requiredOutsideSandbox(keys: T): readonly { key: string; value: unknown; why: string }[];
  /** Fills what the sandbox left out (only in the sandbox). */
  applySandboxDefaults(keys: T): void;
  /** How long one request to the host may take, ms (the money rules' processing window is twice it). */
  timeoutMs(keys: T): number;
}
