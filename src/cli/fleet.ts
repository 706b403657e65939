import { OmniposError } from '../core/index.js';
import { FLEET_COMMANDS, FleetView } from '../fleet/index.js';
import { businessDateOf, parseBusinessDate } from '../operations/index.js';
import { printJson, type Command } from './context.js';
import { BROKER_USAGE, brokerArgs, commandRequestId, connectBroker, quiet } from './fleet-broker.js';

export const fleetWatch: Command = {
  path: ['fleet', 'watch'],
  summary: "a live table of the fleet's terminals: online, health, alarms, today's sales, tables and software",
  usage: `omnipos fleet watch --broker URL [--prefix P] [--once] [broker options]

Reads the retained topics (<prefix>/+/+/status and <prefix>/+/+/day/<today>) and prints one line
per terminal, again on every change; a terminal whose last will fired reads ONLINE NO.
--once prints the table when the retained messages have arrived, and exits.

${BROKER_USAGE}

Example:
  omnipos fleet watch --broker mqtts://broker.example:8883 --ca ca.pem --cert op.pem --key op.key`,
  async run(args, ctx) {
    const { broker, values } = brokerArgs(args, { once: { type: 'boolean' } });
    const client = await connectBroker(broker);
    const view = new FleetView(broker.prefix);
    const today = (): string => businessDateOf(new Date());
    client.on('message', (topic, payload) => view.add(topic, payload));
    await client.subscribeAsync([`${broker.prefix}/+/+/status`, `${broker.prefix}/+/+/day/+`], { qos: 1 });
    if (values.once === true) {
      await quiet(client, 500, broker.timeoutMs);
      ctx.out(view.table(today()));
      await client.endAsync();
      return 0;
    }
    let dirty = true;
    client.on('message', () => (dirty = true));
    const timer = setInterval(() => {
      if (!dirty) return;
      dirty = false;
      ctx.out(`\x1b[2J\x1b[H${new Date().toISOString()}  ${broker.broker}\n\n${view.table(today())}`);
    }, 1000);
    await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    clearInterval(timer);
    await client.endAsync();
    return 0;
  },
};

export const fleetDay: Command = {
  path: ['fleet', 'day'],
  summary: "the day's totals across the fleet, from every terminal's retained day/<date>",
  usage: `omnipos fleet day --broker URL [--date YYYY-MM-DD] [--json] [--prefix P] [broker options]

Adds up the retained <prefix>/+/+/day/<date> of every terminal (default today, host time):
sales, net, sales and voids amounts, how many terminals closed the day, and one line each.

${BROKER_USAGE}

Example:
  omnipos fleet day --broker mqtts://broker.example:8883 --date 2026-11-25 --json`,
  async run(args, ctx) {
    const { broker, values } = brokerArgs(args, { date: { type: 'string' }, json: { type: 'boolean' } });
    const date =
      typeof values.date === 'string' ? parseBusinessDate(values.date, '--date') : businessDateOf(new Date());
    const client = await connectBroker(broker);
    const view = new FleetView(broker.prefix);
    client.on('message', (topic, payload) => view.add(topic, payload));
    await client.subscribeAsync(`${broker.prefix}/+/+/day/${date}`, { qos: 1 });
    await quiet(client, 500, broker.timeoutMs);
    await client.endAsync();
    const day = view.day(date);
    if (values.json === true) printJson(ctx, day);
    else {
      const brl = (c: number): string => (c / 100).toFixed(2);
      ctx.out(
        `${date}: ${day.terminals} terminals (${day.closed} closed), ${day.sales} sales, net ${brl(day.net)} (sales ${brl(day.salesAmount)}, voids ${brl(day.voidsAmount)})\n`,
      );
      for (const t of day.byTerminal)
        ctx.out(
          `  ${t.terminal}  ${t.closed ? 'closed' : 'open  '}  ${String(t.sales).padStart(5)} sales  net ${brl(t.net)}\n`,
        );
    }
    return 0;
  },
};

export const fleetCmd: Command = {
  path: ['fleet', 'cmd'],
  summary: `ask a terminal over the broker to run a safe command (${FLEET_COMMANDS.join(', ')})`,
  usage: `omnipos fleet cmd TERMINAL COMMAND [--json] [--prefix P] --broker URL [broker options]

Publishes <prefix>/<merchant>/<terminal>/cmd/<COMMAND> and waits for .../cmd/<COMMAND>/result.
TERMINAL is MERCHANT/TERMINAL, or a terminal id looked up in the retained status topics.
Accepted by terminals: ${FLEET_COMMANDS.join(', ')}; nothing that moves money is ever accepted.
Exit 0 when the terminal answered ok, 1 when it refused or failed, 3 without an answer.

${BROKER_USAGE}

Example:
  omnipos fleet cmd 42004201 init --broker mqtts://broker.example:8883 --ca ca.pem --cert op.pem --key op.key`,
  async run(args, ctx) {
    const { broker, values, positionals } = brokerArgs(args, { json: { type: 'boolean' } });
    const [terminal, name] = positionals;
    if (!terminal || !name || positionals.length !== 2)
      throw new OmniposError('INVALID_ARGUMENT', 'usage: omnipos fleet cmd TERMINAL COMMAND');
    if (!/^[0-9A-Za-z_-]+(\/[0-9A-Za-z_-]+)?$/.test(terminal) || !/^[0-9A-Za-z_-]{1,64}$/.test(name))
      throw new OmniposError(
        'INVALID_ARGUMENT',
        'TERMINAL is [MERCHANT/]TERMINAL and COMMAND a name, without wildcards',
      );
    const client = await connectBroker(broker);
    try {
      let prefix = terminal.includes('/') ? `${broker.prefix}/${terminal}` : undefined;
      if (!prefix) {
        const found: string[] = [];
        const onStatus = (topic: string): void => void found.push(topic.slice(0, -'/status'.length));
        client.on('message', onStatus);
        await client.subscribeAsync(`${broker.prefix}/+/${terminal}/status`, { qos: 1 });
        await quiet(client, 500, broker.timeoutMs);
        client.off('message', onStatus);
        await client.unsubscribeAsync(`${broker.prefix}/+/${terminal}/status`);
        if (found.length !== 1)
          throw new OmniposError(
            found.length === 0 ? 'FLEET_NO_ANSWER' : 'INVALID_ARGUMENT',
            found.length === 0
              ? `no terminal ${terminal} on the broker`
              : `terminal ${terminal} is under several merchants: name it MERCHANT/${terminal}`,
          );
        prefix = found[0];
      }
      const id = commandRequestId();
      const resultTopic = `${prefix}/cmd/${name}/result`;
      const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new OmniposError(
                'FLEET_NO_ANSWER',
                `no answer from ${prefix} to ${name} within ${broker.timeoutMs / 1000} s`,
              ),
            ),
          broker.timeoutMs,
        );
        client.on('message', (topic, payload) => {
          if (topic !== resultTopic) return;
          try {
            const body = JSON.parse(payload.toString()) as Record<string, unknown>;
            if (body.id !== id) return;
            clearTimeout(timer);
            resolve(body);
          } catch {
            // not an answer we can read
          }
        });
      });
      await client.subscribeAsync(resultTopic, { qos: 1 });
      await client.publishAsync(`${prefix}/cmd/${name}`, JSON.stringify({ id }), { qos: 1 });
      const body = await answer;
      if (values.json === true) printJson(ctx, body);
      else
        ctx.out(
          body.ok === true
            ? `${prefix}: ${name} ok ${JSON.stringify(body.result)}\n`
            : `${prefix}: ${name} refused: ${(body.error as { message?: string } | undefined)?.message ?? '?'}\n`,
        );
      return body.ok === true ? 0 : 1;
    } finally {
      await client.endAsync(true);
    }
  },
};
