/**
 * The configuration's own checks, zod-free: the schema refines with these very functions, and the
 * generated shape (config-shape.generated.ts) names them, so the fast path (fast-parse.ts) runs the
 * same code zod runs.
 */

/** An absolute https or http URL with a host. */
export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** Not only spaces. */
export function isNotBlank(s: string): boolean {
  return s.trim() !== '';
}

/** Every named check, by the name the generated shape gives it. */
export const CUSTOM_CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  httpUrl: isHttpUrl,
  notBlank: isNotBlank,
};
