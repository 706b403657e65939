/** How loud an alarm is: `error` needs a person today, `warn` needs a look. */
export type AlarmSeverity = 'warn' | 'error';

/** An alarm as health, logs and the webhook tell it. */
export interface Alarm {
  /** Unique per occurrence: what the webhook receiver deduplicates on. */
  id: string;
  /** What it is about, stable: `UNDO_NEAR_CLOSE`, `NEEDS_REFUND`, `DEAD_LETTER`, `PRINTER_PAPER_OUT`, `PINPAD_GONE`, `CLOCK_OFF`, or an engine's code. */
  code: string;
  /** Same key, same condition: while it holds, it is raised once. */
  key: string;
  severity: AlarmSeverity;
  message: string;
  /** When it was raised (host time, ISO). */
  since: string;
  /** `condition`: checked and still true; `engine`: told by an engine when it happened. */
  source: 'condition' | 'engine';
  context?: Record<string, unknown>;
}

/** A condition that holds now, before it becomes an alarm. */
export type Condition = Omit<Alarm, 'id' | 'since' | 'source'> & {
  /** Notify once per key for ever (a sale, a dead letter, a close), not again after a restart. */
  once?: boolean;
};
