/**
 * What a host's answer says of a payment's authorization, only where the answer carries it: the
 * authorization code (`cAut`), the host's NSU (`ProofOfSale`) and the brand (`BrandId`, the tables'
 * number). A member the answer did not carry is absent, never made up.
 */
export interface HostAuthorization {
  authorizationCode?: string;
  nsu?: string;
  brandId?: number;
}
