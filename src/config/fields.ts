import { z } from 'zod';
import { isHttpUrl } from './checks.js';

/** The configuration's common fields, for schema.ts and each acquirer kind's keys (acquirer-*.ts). */

export const httpUrl = z
  .string({ error: 'must be an https or http URL' })
  .refine(isHttpUrl, 'must be an https or http URL');

export const filePath = z.string({ error: 'must be a file path' }).min(1, 'must be a file path');

export const port = z.number({ error: 'must be a TCP port number' }).int().min(0).max(65535);
