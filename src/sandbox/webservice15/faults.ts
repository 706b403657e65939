/**
 * The webservice 1.5's messages as the sandbox's fault routes (src/sandbox/faults.ts): a fault set on one
 * of these names (`POST /sandbox/faults`, or `RunningWs15.faults`) applies to the next message of that
 * root on the webservice's listener, as the JSON API's faults apply to its routes. Transport faults only
 * (latency, a 5xx, the connection reset before or after the host did the work, the answer dropped): the
 * webservice's own refusals are its `erro` answers, which the host model gives by its rules.
 */
export const WS15_FAULT_ROUTES = {
  ws15Transaction: ['requisicao-transacao'],
  ws15Capture: ['requisicao-captura'],
  ws15Cancel: ['requisicao-cancelamento'],
  ws15Query: ['requisicao-consulta', 'requisicao-consulta-chsec'],
  ws15Authorize: ['requisicao-autorizacao-tid'],
  ws15Token: ['requisicao-token'],
} as const satisfies Record<string, readonly string[]>;

export type Ws15FaultRoute = keyof typeof WS15_FAULT_ROUTES;

export function isWs15FaultRoute(name: string): name is Ws15FaultRoute {
  return Object.hasOwn(WS15_FAULT_ROUTES, name);
}

/** The fault route of a message, by its root element's name (read before the message is parsed). */
export function ws15FaultRouteOf(message: string): Ws15FaultRoute | undefined {
  const root = /<\s*(requisicao-[a-z-]+)/.exec(message)?.[1];
  if (!root) return undefined;
  return (Object.keys(WS15_FAULT_ROUTES) as Ws15FaultRoute[]).find((r) =>
    (WS15_FAULT_ROUTES[r] as readonly string[]).includes(root),
  );
}
