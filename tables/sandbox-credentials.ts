import data from './sandbox-credentials.json' with { type: 'json' };

/** Credentials the embedded sandbox host accepts, and that a production terminal refuses. */
export const SANDBOX_CREDENTIALS: Readonly<{
  clientId: string;
  clientSecret: string;
  merchantId: string;
  merchantKey: string;
  webservice15Key: string;
}> = Object.freeze({
  clientId: data.clientId,
  clientSecret: data.clientSecret,
  merchantId: data.merchantId,
  merchantKey: data.merchantKey,
  webservice15Key: data.webservice15Key,
});
