import { OmniposError } from '../../core/index.js';
import type { CnpKindEntry } from '../../factory/cnp-parts.js';
import { Webservice15CardNotPresent, Webservice15CnpDelivery, Ws15Transport } from './index.js';

/**
 * The `webservice15` card-not-present kind's factory entry (of the factory ring: eslint.layers.js
 * KIND_FILES): the XML webservice 1.5 on its own endpoint, affiliation and key (cnp-config.ts).
 */
export const WEBSERVICE15_CNP_ENTRY: CnpKindEntry = (config, wiring) => {
  const cnp = config.values.cardNotPresent;
  // Its secrets under its kind (config/card-not-present-kinds.ts): the store's access key.
  const secrets = config.secrets.cardNotPresent;
  const key = secrets?.kind === 'webservice15' ? secrets.webservice15.key : undefined;
  if (cnp?.kind !== 'webservice15' || !key)
    throw new OmniposError('CONFIG_INVALID', 'cardNotPresent: webservice15 needs its keyFile', {
      path: 'cardNotPresent.keyFile',
    });
  const url = wiring.webservice15Url ?? cnp.url;
  const transport = new Ws15Transport({ url, timeoutMs: cnp.timeoutMs, log: wiring.log });
  const soft = config.values.terminal.softDescriptor;
  const backend = new Webservice15CardNotPresent((m, what) => transport.post(m, what), {
    affiliation: cnp.affiliation,
    key: key.reveal(),
    ...(soft ? { softDescriptor: soft } : {}),
  });
  return { backend, delivery: new Webservice15CnpDelivery(backend), close: () => transport.close() };
};
