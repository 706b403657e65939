import { describe, expect, it } from 'vitest';
import { TerminalMetrics } from '../../../src/fleet/metrics.js';

describe('the terminal metrics (OpenMetrics)', () => {
  it('counts each payment once per final status, the pinpad link losses and reconnects, and reads the rest at scrape time', async () => {
    let alarms = [
      { code: 'DEAD_LETTER', severity: 'error' },
      { code: 'DEAD_LETTER', severity: 'error' },
      { code: 'PRINTER_PAPER_OUT', severity: 'warn' },
    ];
    const m = new TerminalMetrics({
      outbox: () => ({ pending: 2, deadLetters: 1, oldestDeadline: '2026-11-25T12:00:00.000Z' }),
      telemetry: () => ({ queued: 7 }),
      printerKind: 'escpos',
      printer: () => ({ online: true, paperOut: true, coverOpen: false }),
      alarms: () => alarms,
      pinpadStatus: () => 'reconnecting',
    });
    m.onEvent({ type: 'state', id: 1, status: 'confirmed' }, 'credit');
    m.onEvent({ type: 'state', id: 1, status: 'confirmed' }, 'credit');
    m.onEvent({ type: 'state', id: 2, status: 'pending' }, 'credit');
    m.onEvent({ type: 'state', id: 3, status: 'declined' }, 'debit');
    m.pinpadLink({ state: 'disconnected', reason: 'read-error' });
    m.pinpadLink({ state: 'reconnected' });
    m.hostAnswered('sale', 0.3, 'answer');
    const { contentType, body } = await m.render();
    expect(contentType).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    expect(body).toContain('omnipos_payments_total{method="credit",status="confirmed"} 1');
    expect(body).toContain('omnipos_payments_total{method="debit",status="declined"} 1');
    expect(body).not.toContain('status="pending"');
    expect(body).toContain('omnipos_pinpad_link_losses_total{reason="read-error"} 1');
    expect(body).toContain('omnipos_pinpad_reconnects_total 1');
    expect(body).toContain('omnipos_pinpad_link_state{state="reconnecting"} 1');
    expect(body).toContain('omnipos_outbox_tasks{state="pending"} 2');
    expect(body).toContain('omnipos_outbox_oldest_deadline_seconds 1795608000');
    expect(body).toContain('omnipos_fleet_telemetry_queued 7');
    expect(body).toContain('omnipos_printer_state{kind="escpos",condition="paper_out"} 1');
    expect(body).toContain('omnipos_alarms{code="DEAD_LETTER",severity="error"} 2');
    expect(body).toContain(
      'omnipos_host_request_duration_seconds_bucket{le="0.5",operation="sale",outcome="answer"} 1',
    );
    expect(body.trimEnd().endsWith('# EOF')).toBe(true);
    alarms = [];
    expect((await m.render()).body).not.toContain('omnipos_alarms{');
  });
});
