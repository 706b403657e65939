import { z } from 'zod';
import data from './sandbox-tables.json' with { type: 'json' };

const Flags = z.record(z.string(), z.union([z.boolean(), z.number(), z.string(), z.array(z.number())]));

const Tables = z.object({
  Acquirer: z.object({
    EnableContaclessCardReader: z.boolean(),
    LockAppFunctionsExceptInitialization: z.boolean(),
    HasChipReader: z.boolean(),
    HasMagneticTrackReader: z.boolean(),
    HasKeyboard: z.boolean(),
  }),
  Bins: z
    .array(
      Flags.and(
        z.object({
          InitialBin: z.string().regex(/^\d{6,8}$/),
          FinalBin: z.string().regex(/^\d{6,8}$/),
          ProductId: z.number().int(),
          IssuerId: z.number().int(),
          Type: z.union([z.literal(0), z.literal(1)]),
        }),
      ),
    )
    .min(1),
  Products: z
    .array(
      Flags.and(
        z.object({
          ProductId: z.number().int(),
          ProductName: z.string().min(1),
          ProductType: z.union([z.literal(0), z.literal(1)]),
          BrandId: z.string(),
        }),
      ),
    )
    .min(1),
  Emv: z
    .array(
      Flags.and(
        z.object({
          Aid: z.string().regex(/^[0-9A-F]{10,32}$/),
          IdxRecord: z.number().int(),
          NatEmvConctactRiskFloorLimit: z.literal(0),
          IntEmvConctactRiskFloorLimit: z.literal(0),
          ProductIds: z.array(z.number().int()).min(1),
        }),
      ),
    )
    .min(1),
  Parameters: z.array(Flags.and(z.object({ Currency: z.string().regex(/^\d{3}$/) }))).length(1),
  Issuers: z.array(Flags.and(z.object({ IssuerId: z.number().int(), IssuerName: z.string().min(1) }))).min(1),
  AidParameters: z.string(),
  PublicKeys: z.string(),
});

export type SandboxTables = z.infer<typeof Tables>;

let parsed: Readonly<SandboxTables> | undefined;

/**
 * The initialization tables the sandbox serves (see the JSON's $comment), validated at their first
 * use (~45 ms of zod, which every daemon start on the sandbox paid when this module loaded);
 * src/initialization validates them fully.
 */
export function sandboxTables(): Readonly<SandboxTables> {
  return (parsed ??= Object.freeze(Tables.parse(data)));
}

/**
 * The AID parameter records alone (the virtual pinpad's factory tables), validated as the whole's
 * `AidParameters` is, without parsing the rest: the virtual pinpad starts with every sandbox daemon.
 */
export function sandboxAidParameters(): string {
  return parsed?.AidParameters ?? Tables.shape.AidParameters.parse(data.AidParameters);
}
