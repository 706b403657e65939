import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderQrSvg } from '../qr/index.js';
import { requireToken } from './auth.js';
import { ApiError } from './http-kit.js';
import { scopeOf, type ApiTokens } from './scopes.js';

/**
 * The cashier, kiosk and supervisor screens: static files from `src/screens/` served under
 * `/screens/`. The pages themselves need no token (they hold no data); every API call they make
 * carries the bearer token the kiosk unit hands the page in the URL fragment.
 *
 * Path traversal is impossible by construction: the directory is read once, the files whose
 * names match {@link NAME} are kept in memory, and a request is only ever a lookup of its last
 * path segment in that map. No request-derived string reaches the file system.
 */

/** The only file names served: lower-case words, one extension we know the type of. */
const NAME = /^[a-z0-9][a-z0-9-]*\.(html|js|css|svg|png)$/;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
};

/**
 * No inline script or style, nothing from another origin; `blob:` images for the QR code the
 * page renders from the SVG it fetched with its token.
 */
export const SCREENS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const SECURITY_HEADERS = {
  'content-security-policy': SCREENS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * Where the screens are: `src/screens` beside this file (tsx), else in the source tree of the
 * package this file runs from (the folder holding package.json): from tsc's dist/src/api/ or from
 * the bundled program's dist/src/cli/chunks/ (packaging/bundle.ts) alike.
 */
function defaultDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, '..', 'screens');
  if (existsSync(path.join(beside, 'cashier.html'))) return beside;
  let dir = here;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const inTree = path.join(dir, 'src', 'screens');
  return existsSync(path.join(inTree, 'cashier.html')) ? inTree : beside;
}

/** Reads the screens directory once: name → bytes, type, ETag. */
export function loadScreens(dir: string = defaultDir()): ReadonlyMap<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir)) {
    const m = NAME.exec(name);
    if (!m) continue;
    const body = readFileSync(path.join(dir, name));
    files.set(name, {
      body,
      type: TYPES[m[1] as string] as string,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    });
  }
  return files;
}

/** Longest code the QR endpoint renders (an EMV MPM or Pix code is well under 512 characters). */
const MAX_QR_TEXT = 1024;

export interface ScreensDeps {
  token: string;
  /** Every token the API takes (the screens' too), when not only `token`. */
  tokens?: ApiTokens | undefined;
  /** The daemon's environment: outside production every screen says "AMBIENTE DE TESTE — SEM VALOR". */
  environment?: string | undefined;
  /** The files, when not the default directory's (tests). */
  screens?: ReadonlyMap<string, StaticFile> | undefined;
}

/** True for the addresses this module answers: `/screens` and below. */
export function isScreensPath(pathname: string): boolean {
  return pathname === '/screens' || pathname.startsWith('/screens/');
}

/**
 * Answers `/screens/*`: `GET|HEAD` of a known file (ETag, `Cache-Control: no-cache` so a daemon
 * upgrade shows at once, the CSP), `/screens/` redirects to the index, `GET
 * /screens/qr.svg?text=` renders a payment code with the token (the page turns it into a blob
 * image), and `GET /screens/environment.json` says which environment the daemon runs in.
 */
export function serveScreens(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: ScreensDeps & { files: ReadonlyMap<string, StaticFile> },
): void {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not served under /screens/`);
  }
  if (url.pathname === '/screens' || url.pathname === '/screens/') {
    res.writeHead(302, { location: '/screens/index.html', 'cache-control': 'no-cache', ...SECURITY_HEADERS });
    res.end();
    return;
  }
  const name = url.pathname.slice('/screens/'.length);
  if (name === 'environment.json') {
    // Not a secret (every receipt prints it): the pages read it before they have a token.
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...SECURITY_HEADERS,
    });
    res.end(method === 'HEAD' ? undefined : JSON.stringify({ environment: deps.environment ?? null }));
    return;
  }
  if (name === 'qr.svg') {
    if (deps.tokens) scopeOf(req, deps.tokens);
    else requireToken(req, deps.token);
    const text = url.searchParams.get('text') ?? '';
    if (text.length === 0 || text.length > MAX_QR_TEXT)
      throw new ApiError(400, 'INVALID_FIELD', `text: 1 to ${MAX_QR_TEXT} characters`, 'text');
    const svg = renderQrSvg(text, { ecc: 'M', scale: 8 });
    res.writeHead(200, { 'content-type': TYPES.svg as string, 'cache-control': 'no-store', ...SECURITY_HEADERS });
    res.end(method === 'HEAD' ? undefined : svg);
    return;
  }
  const file = deps.files.get(name);
  if (!file) throw new ApiError(404, 'NOT_FOUND', `no screen file ${name.slice(0, 80)}`);
  const headers = { 'content-type': file.type, 'cache-control': 'no-cache', etag: file.etag, ...SECURITY_HEADERS };
  if (req.headers['if-none-match'] === file.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': String(file.body.length) });
  res.end(method === 'HEAD' ? undefined : file.body);
}
