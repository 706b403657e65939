import type { Command } from './context.js';

/**
 * One `omnipos` command as `omnipos --help` lists it. Its module is imported only when the command
 * runs or prints its own `--help`: `omnipos --help` and a small command like `omnipos api token`
 * load none of the daemon, the drivers or the sandbox (see docs/operations.md, "Fast start"). The
 * summary here is the module's own, kept equal by test/unit/cli/commands.test.ts.
 */
export interface CommandEntry {
  /** The words that name it, e.g. `['config', 'check']`. */
  path: readonly string[];
  /** One line for `omnipos --help`. */
  summary: string;
  /** Imports the command's module. */
  load(): Promise<Command>;
}

/** Every `omnipos` command, in the order `--help` lists them. Add a command by adding its row here. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    path: ['run'],
    summary: 'start the daemon (what the systemd unit runs)',
    load: async () => (await import('./run-daemon.js')).runDaemon,
  },
  {
    path: ['start'],
    summary: 'the same as omnipos run',
    load: async () => (await import('./run-daemon.js')).startDaemonCommand,
  },
  {
    path: ['demo'],
    summary: 'the demo (npm start): one chip sale on the embedded default, then the screens until Ctrl-C',
    load: async () => (await import('./demo-start.js')).demoStart,
  },
  {
    path: ['demo', 'sale'],
    summary: 'run a sale on the embedded default (sandbox host, virtual pinpad and printer)',
    load: async () => (await import('./demo.js')).demoSale,
  },
  {
    path: ['api', 'token'],
    summary: "print the local API's bearer token (created at first start)",
    load: async () => (await import('./api-token.js')).apiToken,
  },
  {
    path: ['queue', 'list'],
    summary: 'list the outbox: confirmations and undos waiting for the acquirer, and dead letters',
    load: async () => (await import('./queue.js')).queueList,
  },
  {
    path: ['queue', 'flush'],
    summary: 'make every waiting request due now (the daemon delivers it at its next pass)',
    load: async () => (await import('./queue.js')).queueFlush,
  },
  {
    path: ['config', 'check'],
    summary: 'validate a configuration and print it with secrets masked',
    load: async () => (await import('./config.js')).configCheck,
  },
  {
    path: ['config', 'schema'],
    summary: 'print the JSON Schema of the configuration file',
    load: async () => (await import('./config.js')).configSchema,
  },
  {
    path: ['tools', 'tlv', 'decode'],
    summary: 'decode BER-TLV hex (EMV data) with tag names; card data masked',
    load: async () => (await import('./tools-tlv.js')).toolsTlvDecode,
  },
  {
    path: ['tools', 'qr', 'decode'],
    summary: 'check and decode a dynamic QR code (br.com.padraoq, any model) or a Pix BR Code',
    load: async () => (await import('./tools-qr.js')).toolsQrDecode,
  },
  {
    path: ['tools', 'qr', 'encode'],
    summary: 'build a dynamic QR code string from a JSON file of fields',
    load: async () => (await import('./tools-qr.js')).toolsQrEncode,
  },
  {
    path: ['tools', 'crc16'],
    summary: 'CRC-16/CCITT-FALSE of a text (the QR object 63 checksum)',
    load: async () => (await import('./tools-qr.js')).toolsCrc16,
  },
  {
    path: ['tools', 'dukpt'],
    summary: 'derive the DUKPT keys of a BDK and KSN (sandbox only)',
    load: async () => (await import('./tools-dukpt.js')).toolsDukpt,
  },
  {
    path: ['tools', 'pinblock', 'encode'],
    summary: 'build an ISO 9564-1 PIN block (formats 0, 1, 3, 4), optionally encrypted (keys: sandbox only)',
    load: async () => (await import('./tools-pinblock.js')).toolsPinblockEncode,
  },
  {
    path: ['tools', 'pinblock', 'decode'],
    summary: 'read the PIN of an ISO 9564-1 PIN block, clear or encrypted (keys: sandbox only)',
    load: async () => (await import('./tools-pinblock.js')).toolsPinblockDecode,
  },
  {
    path: ['sandbox'],
    summary: 'run the sandbox acquirer host on loopback (omni, e-commerce, wallet APIs and /sandbox/ controls)',
    load: async () => (await import('./sandbox.js')).sandboxRun,
  },
  {
    path: ['sandbox', 'credentials'],
    summary: 'print the test credentials the sandbox accepts, and its registered merchant and terminal',
    load: async () => (await import('./sandbox.js')).sandboxCredentialsCommand,
  },
  {
    path: ['wallet', 'pay'],
    summary: "pay a QR code as a wallet would, against the sandbox's wallet API only",
    load: async () => (await import('./wallet.js')).walletPay,
  },
  {
    path: ['pinpad', 'info'],
    summary: 'show the pinpad model, serial number, firmware, spec version and key slots',
    load: async () => (await import('./pinpad.js')).pinpadInfo,
  },
  {
    path: ['pinpad', 'display'],
    summary: 'show a message on the pinpad display',
    load: async () => (await import('./pinpad.js')).pinpadDisplay,
  },
  {
    path: ['pinpad', 'ports'],
    summary: 'list serial ports and say which look like pinpads, and pinpads on USB with no port (sends nothing)',
    load: async () => (await import('./pinpad.js')).pinpadPorts,
  },
  {
    path: ['pinpad', 'rotate-key'],
    summary: "replace the terminal's RSA key for the pinpad's secure channel",
    load: async () => (await import('./pinpad-key.js')).pinpadRotateKey,
  },
  {
    path: ['sim', 'pinpad'],
    summary: 'run the virtual ABECS pinpad on a TCP port or a pseudo-terminal',
    load: async () => (await import('./sim.js')).simPinpad,
  },
  {
    path: ['printer', 'status'],
    summary: "read the printer's real-time status (paper, cover, errors)",
    load: async () => (await import('./printer.js')).printerStatus,
  },
  {
    path: ['printer', 'test'],
    summary: 'print a test page and wait until the printer says it is out',
    load: async () => (await import('./printer.js')).printerTest,
  },
  {
    path: ['sim', 'printer'],
    summary: "run the virtual ESC/POS printer on a TCP port (like a network printer's 9100)",
    load: async () => (await import('./printer.js')).simPrinter,
  },
  {
    path: ['tables', 'show'],
    summary: 'show the initialization tables in force (or one table)',
    load: async () => (await import('./tables.js')).tablesShow,
  },
  {
    path: ['tables', 'bin'],
    summary: 'what the tables decide for a card: products, issuer, flags, installments, PIN, CVV',
    load: async () => (await import('./tables.js')).tablesBin,
  },
  {
    path: ['pinpad', 'read-card'],
    summary: 'read a card on the pinpad: the masked PAN and card type (never a clear number)',
    load: async () => (await import('./pinpad-card.js')).pinpadReadCard,
  },
  {
    path: ['pinpad', 'tables'],
    summary: 'the EMV table versions the pinpad holds, per network (GIX PP_TABVERnn)',
    load: async () => (await import('./pinpad-card.js')).pinpadTables,
  },
  {
    path: ['sim', 'card'],
    summary: 'pick the card the virtual pinpad presents (its control port)',
    load: async () => (await import('./pinpad-card.js')).simCard,
  },
  {
    path: ['init'],
    summary: 'initialize the terminal (technicians): technical parameters, tables, pinpad load',
    load: async () => (await import('./init.js')).init,
  },
  {
    path: ['qr', 'sale'],
    summary: 'sell with a wallet QR code: show it, wait until it is paid and confirmed',
    load: async () => (await import('./qr-sale.js')).qrSale,
  },
  {
    path: ['pix', 'sale'],
    summary: 'sell with Pix: show the code, wait until it is paid',
    load: async () => (await import('./pix-sale.js')).pixSale,
  },
  {
    path: ['cnp', 'sale'],
    summary: 'a phone order (card not present): the card typed on the pinpad, or a saved card, on the running daemon',
    load: async () => (await import('./cnp.js')).cnpSale,
  },
  {
    path: ['cnp', 'show'],
    summary: 'print a sale without the card present as the API shows it (masked number, state, host ids)',
    load: async () => (await import('./cnp.js')).cnpShow,
  },
  {
    path: ['cnp', 'capture'],
    summary: 'capture a card-not-present pre-authorization, whole or in part (--amount)',
    load: async () => (await import('./cnp-cards.js')).cnpCapture,
  },
  {
    path: ['cnp', 'void'],
    summary: "void a phone order or a pre-authorization (card not present), with the supervisor's password",
    load: async () => (await import('./cnp-cards.js')).cnpVoid,
  },
  {
    path: ['cnp', 'card', 'save'],
    summary: 'save a card at the host without a sale (card not present): typed on the pinpad',
    load: async () => (await import('./cnp-cards.js')).cnpCardSave,
  },
  {
    path: ['cnp', 'card', 'list'],
    summary: 'list the saved cards: id, masked number, brand, backend (never the token)',
    load: async () => (await import('./cnp-cards.js')).cnpCardList,
  },
  {
    path: ['cnp', 'card', 'remove'],
    summary: "remove a saved card, with the supervisor's password: its sealed token erased from the disk",
    load: async () => (await import('./cnp-cards.js')).cnpCardRemove,
  },
  {
    path: ['cnp', 'recurrence', 'create'],
    summary: 'a recurrence the host schedules (a gym kiosk): its first charge now, the card typed or saved',
    load: async () => (await import('./cnp-cards.js')).cnpRecurrenceCreate,
  },
  {
    path: ['cnp', 'recurrence', 'show'],
    summary: 'print a recurrence as its host shows it now (status, next charge, its charges)',
    load: async () => (await import('./cnp-cards.js')).cnpRecurrenceShow,
  },
  {
    path: ['sale'],
    summary: 'a whole card sale from a terminal, on the running daemon, with the pinpad prompts and a progress line',
    load: async () => (await import('./sale.js')).sale,
  },
  {
    path: ['diag'],
    summary: 'check devices, pinpad recognition and key slots, printer, acquirer, clock, tables and outbox',
    load: async () => (await import('./diag.js')).diag,
  },
  {
    path: ['register', 'merchant'],
    summary: 'register the store at the acquirer (POST /merchants) and print its SubordinatedMerchantId',
    load: async () => (await import('./register.js')).registerMerchant,
  },
  {
    path: ['register', 'terminal'],
    summary: 'register this terminal for the store at the acquirer (POST /terminals)',
    load: async () => (await import('./register.js')).registerTerminal,
  },
  {
    path: ['kiosk'],
    summary: "open the screens in a full-screen browser once the daemon's API answers (omnipos-kiosk.service)",
    load: async () => (await import('./kiosk.js')).kiosk,
  },
  {
    path: ['receipt', 'reprint'],
    summary: 'reprint a receipt of today, marked SEGUNDA VIA (no ID: the last sale)',
    load: async () => (await import('./receipt.js')).receiptReprint,
  },
  {
    path: ['receipt', 'show'],
    summary: "show a payment's receipt as text (or HTML, or a PNG to a file)",
    load: async () => (await import('./receipt.js')).receiptShow,
  },
  {
    path: ['day', 'report'],
    summary: "the day's report: every sale, void, undo, refund and needs-refund, totals by method, brand and product",
    load: async () => (await import('./day.js')).dayReport,
  },
  {
    path: ['day', 'close'],
    summary: 'close the day (a supervisor authorizes): the running daemon prints the report and archives it (once)',
    load: async () => (await import('./day.js')).dayClose,
  },
  {
    path: ['day', 'receipt'],
    summary: "a receipt of an archived day, read back from the day's archive file (marked SEGUNDA VIA)",
    load: async () => (await import('./day-receipt.js')).dayReceipt,
  },
  {
    path: ['void'],
    summary:
      'void a confirmed sale, with a supervisor: a card sale (same card) or a wallet QR sale (cancellation code)',
    load: async () => (await import('./void.js')).voidCommand,
  },
  {
    path: ['supervisor', 'password'],
    summary: "set this terminal's supervisor password (stored as a salted scrypt hash)",
    load: async () => (await import('./void.js')).supervisorPassword,
  },
  {
    path: ['supervisor', 'token'],
    summary: "print the API's supervisor token (distinct from the cash register's)",
    load: async () => (await import('./void.js')).supervisorToken,
  },
  {
    path: ['support', 'bundle'],
    summary: 'write one .tar.gz for support: configuration (secrets masked), versions, health, outbox, logs, the day',
    load: async () => (await import('./support.js')).supportBundleCommand,
  },
  {
    path: ['homologation', 'run'],
    summary: "run the acquirer's homologation script against the configured host and write the evidence per test",
    load: async () => (await import('./homologation.js')).homologationRun,
  },
  {
    path: ['fleet', 'watch'],
    summary: "a live table of the fleet's terminals: online, health, alarms, today's sales, tables and software",
    load: async () => (await import('./fleet.js')).fleetWatch,
  },
  {
    path: ['fleet', 'day'],
    summary: "the day's totals across the fleet, from every terminal's retained day/<date>",
    load: async () => (await import('./fleet.js')).fleetDay,
  },
  {
    path: ['fleet', 'cmd'],
    summary: 'ask a terminal over the broker to run a safe command (init, outbox-flush, status, day-report)',
    load: async () => (await import('./fleet.js')).fleetCmd,
  },
];
