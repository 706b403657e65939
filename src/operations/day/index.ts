export { DayBook, type DayCloseResult } from './day-book.js';
export { businessDateOf, businessDayBounds, parseBusinessDate } from './business-day.js';
export {
  dayLine,
  CHARGED_OUTCOMES,
  DAY_BRAND_PATTERN,
  DAY_METHODS,
  DAY_OUTCOMES,
  DAY_PRODUCT_PATTERN,
  type DayLine,
  type DayOutcome,
} from './lines.js';
export { buildDayReport, type DayReport } from './report.js';
export { dayReportDocument } from './print.js';
