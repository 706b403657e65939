import { statSync } from 'node:fs';
import path from 'node:path';
import { kindSecretFiles, portKinds } from './port-kinds.js';
import type { ConfigProblem } from './problems.js';
import type { ConfigValues } from './schema.js';

/** The configuration's secret files, by key (paths already resolved, but the MQTT ones against `dir`). */
function secretFiles(values: ConfigValues, dir: string): { key: string; file: string }[] {
  const mqtt = values.fleet.mqtt;
  const files: { key: string; file: string | undefined }[] = [
    // Each port's configured kind's, by its declared secrets (the acquirer's, the card-not-present sales').
    ...Object.values(portKinds(values)).flatMap(kindSecretFiles),
    { key: 'api.lan.keyFile', file: values.api.lan?.keyFile },
    { key: 'alarms.webhook.secretFile', file: values.alarms.webhook?.secretFile },
    { key: 'fleet.mqtt.passwordFile', file: mqtt?.passwordFile && path.resolve(dir, mqtt.passwordFile) },
    { key: 'fleet.mqtt.keyFile', file: mqtt?.keyFile && path.resolve(dir, mqtt.keyFile) },
  ];
  return files.filter((f): f is { key: string; file: string } => f.file !== undefined);
}

/**
 * Outside the sandbox, a secret file that its group or others may read or write is refused, named
 * by its key: only the service user reads its secrets (`install -m 0600 -o omnipos`). A file that
 * cannot be read is told by the reading, not here; `published` files (the sandbox's credentials,
 * public in this repository, refused in production by the production guard) are no secret.
 */
export function secretModeProblems(
  values: ConfigValues,
  dir: string,
  published: ReadonlySet<string> = new Set(),
): ConfigProblem[] {
  if (values.environment === 'sandbox') return [];
  const problems: ConfigProblem[] = [];
  for (const { key, file } of secretFiles(values, dir)) {
    if (published.has(file)) continue;
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o077) !== 0)
      problems.push({
        path: key,
        message: `${file} is open to its group or others (mode 0${mode.toString(8)}); outside the sandbox a secret is the service user's alone: chmod 600 ${file}`,
      });
  }
  return problems;
}
