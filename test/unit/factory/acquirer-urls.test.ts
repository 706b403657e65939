import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { acquirerUrls, sandboxListenOptions } from '../../../src/factory/index.js';
import { SANDBOX_BASES, type RunningSandbox, type SandboxBase } from '../../../src/sandbox/index.js';

/** A running sandbox as acquirerUrls sees it: each base's listener address and port. */
function running(ports: Record<SandboxBase, number>): RunningSandbox {
  const urls = Object.fromEntries(
    SANDBOX_BASES.map((b) => [b, `http://127.0.0.1:${ports[b]}${b === 'parameters' ? '/api/v0.1' : ''}`]),
  ) as Record<SandboxBase, string>;
  return {
    url: 'http://127.0.0.1:1',
    port: 1,
    urls,
    ports,
    sandbox: undefined as never,
    server: undefined as never,
    close: () => Promise.resolve(),
  };
}

const env = (extra: Record<string, string> = {}): Record<string, string> => ({
  OMNIPOS_CONFIG: '',
  OMNIPOS_STATE_DIR: '/tmp/omnipos-addresses-test',
  ...extra,
});

describe('the embedded sandbox: one listener per configured address', () => {
  it('the default configuration gives each base its own port; the daemon listens there', () => {
    const config = loadConfig({ env: env() });
    expect(sandboxListenOptions(config)).toEqual({
      port: 18080,
      ports: {
        authorization: 18081,
        requests: 18082,
        queries: 18083,
        parameters: 18084,
        registration: 18085,
        ecommerceRequests: 18086,
        ecommerceQueries: 18087,
        wallet: 18088,
      },
    });
    // a port override for the controls (tests: 0) puts every base on a free port
    expect(sandboxListenOptions(config, 0)).toEqual({ port: 0, ports: {} });
  });

  it('each address points at the listener on its port, the path kept; an address on the wrong base reaches the wrong base', () => {
    const ports = {
      authorization: 18081,
      requests: 18082,
      queries: 18083,
      parameters: 18084,
      registration: 18085,
      ecommerceRequests: 18086,
      ecommerceQueries: 18087,
      wallet: 18088,
    };
    const ok = acquirerUrls(loadConfig({ env: env() }), running(ports));
    expect(ok).toMatchObject({
      authUrl: 'http://127.0.0.1:18081',
      parametersUrl: 'http://127.0.0.1:18084/api/v0.1',
      ecommerceQueryUrl: 'http://127.0.0.1:18087',
      walletUrl: 'http://127.0.0.1:18088',
    });
    // a query address configured on the request host's port goes there: the host will not serve queries on it
    const wrong = acquirerUrls(
      loadConfig({ env: env({ OMNIPOS_ACQUIRER__QUERY_URL: 'http://127.0.0.1:18082' }) }),
      running(ports),
    );
    expect(wrong.queryUrl).toBe('http://127.0.0.1:18082');
  });

  it('with the listeners on free ports (sandbox.port 0), each key is pointed at its own base', () => {
    const free = {
      authorization: 40001,
      requests: 40002,
      queries: 40003,
      parameters: 40004,
      registration: 40005,
      ecommerceRequests: 40006,
      ecommerceQueries: 40007,
      wallet: 40008,
    };
    const urls = acquirerUrls(loadConfig({ env: env({ OMNIPOS_SANDBOX__PORT: '0' }) }), running(free));
    expect(urls).toEqual({
      authUrl: 'http://127.0.0.1:40001',
      requestUrl: 'http://127.0.0.1:40002',
      queryUrl: 'http://127.0.0.1:40003',
      parametersUrl: 'http://127.0.0.1:40004/api/v0.1',
      registrationUrl: 'http://127.0.0.1:40005',
      ecommerceUrl: 'http://127.0.0.1:40006',
      ecommerceQueryUrl: 'http://127.0.0.1:40007',
      walletUrl: 'http://127.0.0.1:40008',
    });
    // an address that is not the sandbox's stays as configured
    const remote = acquirerUrls(
      loadConfig({
        env: env({ OMNIPOS_SANDBOX__PORT: '0', OMNIPOS_ACQUIRER__WALLET_URL: 'https://wallet.example.com' }),
      }),
      running(free),
    );
    expect(remote.walletUrl).toBe('https://wallet.example.com');
  });
});

describe('another acquirer kind beside the embedded sandbox', () => {
  /** The default configuration with a second kind's keys instead of omni's (no such kind ships: read as JSON). */
  function otherKind(): Config {
    const config = loadConfig({ env: env() });
    const acquirer: Config['values']['acquirer'] = JSON.parse(
      '{"kind":"stub","stub":{"hostUrl":"https://stub.invalid"}}',
    );
    return { ...config, values: { ...config.values, acquirer } };
  }

  it('starts the sandbox on its own ports and maps no address (it plays the omni host; on 8230ee6 omniKeys threw)', () => {
    const config = otherKind();
    expect(sandboxListenOptions(config)).toEqual({ port: 18080, ports: {} });
    const ports = Object.fromEntries(SANDBOX_BASES.map((b, i) => [b, 40000 + i])) as Record<SandboxBase, number>;
    expect(acquirerUrls(config, running(ports))).toEqual({});
  });
});
