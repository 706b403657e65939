import path from 'node:path';
import { parseArgs } from 'node:util';
import { isLoopbackHost, loadConfig } from '../config/index.js';
import { systemClock, OmniposError } from '../core/index.js';
import { createLogger } from '../core/log/index.js';
import { checkCardData, type WalletCardData } from '../crypto/index.js';
import { acquirerProvisioning } from '../factory/index.js';
import { readInUse } from '../factory/index.js';
import { printJson, type Command } from './context.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const walletPay: Command = {
  path: ['wallet', 'pay'],
  summary: "pay a QR code as a wallet would, against the sandbox's wallet API only",
  usage: `omnipos wallet pay QR_STRING --card PAN --cvv N --exp MMYY --name NAME --document CPF [--payer NAME] [--config PATH]
omnipos wallet pay QR_STRING --document CPF < card.json

Plays a wallet: fetches a token and the RSA public key, encrypts the card data and pays the
dynamic QR code, then prints the wallet API's answer. Without --card the card is read from
standard input as {"card_number","card_cvv","card_holder_name","card_expiration_date"}.
A cancellation code (81.04 "02", shown by a void of a wallet QR sale) is paid the same way,
with the card that paid the sale: the sandbox voids that much of the sale it names.
Refuses any host but the local sandbox (environment "sandbox" and a loopback wallet address).
The wallet address is where this state directory's sandbox listens when one runs (the daemon's
embedded sandbox records it, its ports moved by sandbox.port 0 too), else the configuration's.

Example:
  omnipos wallet pay "$QR" --card 4761730000000060 --cvv 123 --exp 1230`,
  async run(args, ctx) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        card: { type: 'string' },
        cvv: { type: 'string' },
        exp: { type: 'string' },
        name: { type: 'string' },
        document: { type: 'string' },
        payer: { type: 'string' },
        config: { type: 'string' },
      },
      strict: true,
    });
    const qr = positionals[0];
    if (!qr || positionals.length > 1)
      throw new OmniposError('INVALID_ARGUMENT', 'wallet pay: give exactly one QR_STRING');
    if (!values.document) throw new OmniposError('INVALID_ARGUMENT', '--document: the payer CPF or CNPJ is required');
    const config = loadConfig({ ...(values.config ? { path: values.config } : {}), env: ctx.env });
    // The sandbox of this state directory where it listens now (the daemon's embedded one, ports moved or not).
    const sandbox = readInUse(path.join(config.values.stateDir, 'sandbox'));
    const acquirer = acquirerProvisioning(config, {
      clock: systemClock,
      log: createLogger({ level: 'silent' }),
      ...(sandbox ? { sandbox } : {}),
    });
    try {
      const wallet = acquirer.wallet;
      if (!wallet)
        throw new OmniposError('SANDBOX_REFUSED', `wallet pay: the ${acquirer.kind} acquirer has no wallet API`, {
          environment: config.values.environment,
        });
      const host = new URL(wallet.address).hostname;
      if (config.values.environment !== 'sandbox' || !isLoopbackHost(host)) {
        throw new OmniposError(
          'SANDBOX_REFUSED',
          `wallet pay: refusing ${wallet.address}; card data goes only to the local sandbox`,
          { environment: config.values.environment, host },
        );
      }
      let card: WalletCardData;
      if (values.card !== undefined) {
        if (!values.cvv || !values.exp || !values.name)
          throw new OmniposError('INVALID_ARGUMENT', '--card needs --cvv, --exp (MMYY) and --name');
        if (!/^\d{4}$/.test(values.exp)) throw new OmniposError('INVALID_ARGUMENT', '--exp: expected MMYY');
        card = {
          card_number: values.card,
          card_cvv: values.cvv,
          card_holder_name: values.name,
          card_expiration_date: values.exp,
        };
      } else {
        let parsed: unknown;
        try {
          parsed = JSON.parse(await readStdin());
        } catch {
          throw new OmniposError('INVALID_ARGUMENT', 'standard input: expected the card data as JSON');
        }
        card = checkCardData(parsed);
      }
      const answer = await wallet.pay({
        qrCode: qr,
        card,
        payerDocument: values.document,
        payerName: values.payer ?? card.card_holder_name,
      });
      printJson(ctx, answer);
      return 0;
    } finally {
      await acquirer.close();
    }
  },
};
