/**
 * Parse options for a zod schema parsed once per process (a table at its first use, the
 * configuration, a table set): zod's interpreter rather than its compiled fast path. Compiling an
 * object's parser (`new Function`, at its first parse) costs more than it saves on a single parse,
 * and it is paid again for every object schema in a start-up; the checks are the same either way.
 */
export const ONCE = { jitless: true } as const;
