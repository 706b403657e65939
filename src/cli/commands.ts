import { configCheck, configSchema } from './config.js';
import type { Command } from './context.js';
import { queueFlush, queueList } from './queue.js';
import { apiToken } from './api-token.js';
import { demoSale } from './demo.js';
import { toolsDukpt } from './tools-dukpt.js';
import { toolsPinblockDecode, toolsPinblockEncode } from './tools-pinblock.js';
import { toolsCrc16, toolsQrDecode, toolsQrEncode } from './tools-qr.js';
import { toolsTlvDecode } from './tools-tlv.js';
import { runDaemon, startDaemonCommand } from './run-daemon.js';
import { sandboxCredentialsCommand, sandboxRun } from './sandbox.js';
import { walletPay } from './wallet.js';
import { pinpadDisplay, pinpadInfo, pinpadPorts } from './pinpad.js';
import { simPinpad } from './sim.js';
import { pinpadReadCard, pinpadTables, simCard } from './pinpad-card.js';
import { tablesBin, tablesShow } from './tables.js';
import { printerStatus, printerTest, simPrinter } from './printer.js';
import { init } from './init.js';
import { dayClose, dayReport } from './day.js';
import { qrSale } from './qr-sale.js';
import { pixSale } from './pix-sale.js';
import { sale } from './sale.js';
import { diag } from './diag.js';
import { registerMerchant, registerTerminal } from './register.js';
import { receiptReprint, receiptShow } from './receipt.js';
import { supervisorPassword, supervisorToken, voidCommand } from './void.js';

/** Every `omnipos` command. Add a command by adding its module here. */
export const COMMANDS: readonly Command[] = [runDaemon, startDaemonCommand, demoSale, apiToken, queueList, queueFlush, configCheck, configSchema, toolsTlvDecode, toolsQrDecode, toolsQrEncode, toolsCrc16, toolsDukpt, toolsPinblockEncode, toolsPinblockDecode, sandboxRun, sandboxCredentialsCommand, walletPay, pinpadInfo, pinpadDisplay, pinpadPorts, simPinpad, printerStatus, printerTest, simPrinter, tablesShow, tablesBin, pinpadReadCard, pinpadTables, simCard, init, qrSale, pixSale, sale, diag, registerMerchant, registerTerminal, receiptReprint, receiptShow, dayReport, dayClose, voidCommand, supervisorPassword, supervisorToken];
