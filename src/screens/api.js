// The screens' link to the daemon: the bearer token, JSON calls, the event stream, the QR image.
import { t } from './i18n.js';

const TOKEN_KEY = 'omnipos.token';

/**
 * The API token. The kiosk unit opens the page as `…/kiosk.html#token=…`: a URL fragment is never
 * sent to a server or written to its logs. The page moves it to sessionStorage (gone when the
 * browser closes) and removes it from the address bar and the history entry.
 */
export function token() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/** An API refusal: HTTP status, the API's error code and, for bad input, the field at fault. */
export class ApiFailure extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/**
 * One JSON call with the token; throws ApiFailure on a non-2xx answer (status 0: no answer, or
 * `signal` aborted it). `headers`: more request headers (Idempotency-Key, the supervisor's password).
 */
export async function api(
  path,
  { method = 'GET', body, timeoutMs = 10_000, accept = 'application/json', headers: more = {}, signal } = {},
) {
  const headers = { ...more, authorization: `Bearer ${token()}`, accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiFailure(0, 'UNREACHABLE', String(e?.message ?? e));
  }
  const type = res.headers.get('content-type') ?? '';
  const data = type.startsWith('application/json') ? await res.json().catch(() => ({})) : await res.text();
  if (!res.ok) {
    const err = typeof data === 'object' ? (data.error ?? {}) : {};
    throw new ApiFailure(res.status, err.code ?? `HTTP_${res.status}`, err.message ?? res.statusText, err.field);
  }
  return data;
}

/** Every event type the daemon sends on GET /v1/events (an EventSource only hears the named ones). */
const EVENT_TYPES = ['state', 'qr', 'alarm', 'receipt-question', 'prompt', 'recovery', 'message'];

/**
 * Follows GET /v1/events. An EventSource cannot send the Authorization header, so each
 * connection buys a single-use ticket with the token first (POST /v1/events/ticket); on an error
 * the stream is closed and reopened with a new ticket (the browser's own retry would reuse the
 * spent one). `onLink(true|false)` tells whether the stream is open.
 */
export function followEvents(onEvent, onLink = () => {}) {
  let source;
  let stopped = false;
  let delay = 500;
  const again = () => {
    if (stopped) return;
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 5000);
  };
  const connect = async () => {
    try {
      const { ticket } = await api('/v1/events/ticket', { method: 'POST' });
      if (stopped) return;
      source = new EventSource(`/v1/events?ticket=${encodeURIComponent(ticket)}`);
      source.onopen = () => {
        delay = 500;
        onLink(true);
      };
      source.onerror = () => {
        source.close();
        onLink(false);
        again();
      };
      for (const type of EVENT_TYPES) {
        source.addEventListener(type, (e) => {
          try {
            onEvent(JSON.parse(e.data));
          } catch {
            // a malformed event is skipped; the page reads the payment's state anyway
          }
        });
      }
    } catch {
      onLink(false);
      again();
    }
  };
  void connect();
  return {
    close() {
      stopped = true;
      source?.close();
    },
  };
}

let qrUrl;

/** Shows `code` in `img`, drawn by the daemon (GET /screens/qr.svg with the token) as a blob image. */
export async function showQr(img, code) {
  const res = await fetch(`/screens/qr.svg?text=${encodeURIComponent(code)}`, {
    headers: { authorization: `Bearer ${token()}` },
    cache: 'no-store',
  });
  if (!res.ok) throw new ApiFailure(res.status, 'QR', 'the QR code could not be drawn');
  if (qrUrl) URL.revokeObjectURL(qrUrl);
  qrUrl = URL.createObjectURL(await res.blob());
  img.src = qrUrl;
  img.hidden = false;
}

/** Reais from cents, the Brazilian way (R$ 25,10). */
export function money(cents, lang = 'pt') {
  return new Intl.NumberFormat(lang === 'en' ? 'en-US' : 'pt-BR', { style: 'currency', currency: 'BRL' }).format(
    cents / 100,
  );
}

/** Cents from what a person typed ("25,10", "25.10", "2510" read as reais when it has no separator). */
export function parseAmount(text) {
  const t = String(text)
    .trim()
    .replace(/^R\$\s*/, '');
  const m = /^(\d{1,6})(?:[.,](\d{1,2}))?$/.exec(t);
  if (!m) return undefined;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  return cents > 0 ? cents : undefined;
}

/** A URL parameter as a number of milliseconds, or `fallback`. */
export function msParam(name, fallback) {
  const v = Number(new URLSearchParams(location.search).get(name));
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * Outside production every screen says so: a banner "AMBIENTE DE TESTE — SEM VALOR" at the top,
 * from GET /screens/environment.json (no banner when the daemon does not say).
 */
export async function environmentBanner() {
  try {
    const { environment } = await fetch('/screens/environment.json', { cache: 'no-store' }).then((r) => r.json());
    if (!environment || environment === 'production') return;
    const banner = document.createElement('div');
    banner.className = 'test-banner';
    banner.id = 'environment';
    // The words follow the page's language (data-i18n); the environment's name is an identifier.
    const words = document.createElement('span');
    words.dataset.i18n = 'environment.test';
    words.textContent = t('environment.test');
    const name = document.createElement('code');
    name.textContent = environment;
    banner.append(words, ' (', name, ')');
    document.body.prepend(banner);
  } catch {
    // no banner
  }
}
