import forge from 'node-forge';

/**
 * A self-signed certificate made here (RSA 2048, SHA-256), so a test trusts exactly it: for
 * 127.0.0.1, and for `dnsNames` when given (the names a cash register on the LAN reaches it by).
 */
export function selfSigned(dnsNames: readonly string[] = []): { cert: string; key: string } {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  const name = [{ name: 'commonName', value: 'omnipos test terminal' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    {
      name: 'subjectAltName',
      altNames: [{ type: 7, ip: '127.0.0.1' }, ...dnsNames.map((value) => ({ type: 2, value }))],
    },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(keys.privateKey) };
}
