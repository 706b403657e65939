import path from 'node:path';
import { Terminal } from './terminal.js';

/**
 * The chaos run's terminals under `dir`: the first merchant as the default configuration has it;
 * with `merchants` 2, the second from tables/sandbox/second-merchant.json (own state directory, own
 * pinpad, orderIdTerminal 2001) against the same host. `extraEnv(i)`: the i-th terminal's other variables
 * (its card-not-present backend).
 */
export function chaosTerminals(
  dir: string,
  merchants: 1 | 2,
  extraEnv: (index: number) => Record<string, string> = () => ({}),
): Terminal[] {
  const terminals = [new Terminal({ name: 'merchant-1', stateDir: path.join(dir, 'terminal'), env: extraEnv(0) })];
  if (merchants === 2) {
    terminals.push(
      new Terminal({
        name: 'merchant-2',
        stateDir: path.join(dir, 'terminal-2'),
        env: {
          ...extraEnv(1),
          // One JSON object: an OMNIPOS_* value of digits is read as a number, and terminalId is a string.
          OMNIPOS_TERMINAL: JSON.stringify({
            subordinatedMerchantId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
            terminalId: '42004301',
            ordinal: 1,
            orderIdTerminal: 2001,
            softDescriptor: 'OMNIPOS',
            mode: 'attended',
          }),
        },
      }),
    );
  }
  return terminals;
}
