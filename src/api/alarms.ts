/** The alarm as `GET /v1/health` lists it (src/operations/alarms), for the OpenAPI document. */
export const ALARM_SCHEMA: Record<string, unknown> = {
  type: 'object',
  description:
    'Something that needs a person: an undo undelivered near the daily close, a sale in needs-refund, a dead letter, the printer out of paper, offline or open, the pinpad gone, the clock off, or an engine alarm. The same object is POSTed to the configured webhook (with terminalId and environment), signed: X-Omnipos-Signature: sha256=<hex HMAC-SHA256 of "<X-Omnipos-Timestamp>.<body>">.',
  properties: {
    id: { type: 'string', description: 'Unique per occurrence (the webhook receiver deduplicates on it).' },
    code: {
      type: 'string',
      description:
        'UNDO_NEAR_CLOSE, NEEDS_REFUND, DEAD_LETTER, PRINTER_PAPER_OUT, PRINTER_OFFLINE, PRINTER_COVER_OPEN, PINPAD_GONE, CLOCK_OFF, or an engine code.',
    },
    key: { type: 'string' },
    severity: { type: 'string', enum: ['warn', 'error'] },
    message: { type: 'string' },
    since: { type: 'string', format: 'date-time' },
    source: { type: 'string', enum: ['condition', 'engine'] },
    context: { type: 'object' },
  },
  required: ['id', 'code', 'severity', 'message', 'since', 'source'],
};
