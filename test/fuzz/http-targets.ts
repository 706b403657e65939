// Fuzz targets that read HTTP requests and files (issue 23): the sandbox host's request handling
// on every base (the wallet payloads among them), the local API's payment body and headers, and
// the configuration loader with OMNIPOS_* overrides. Used by campaign.ts; one
// file each: sandbox-target.ts, api-target.ts, config-target.ts, and what they are made of in http-inputs.ts.
export { apiTarget } from './api-target.js';
export { configTarget } from './config-target.js';
export { documentWords, type AsyncTarget } from './http-inputs.js';
export { sandboxTarget } from './sandbox-target.js';
