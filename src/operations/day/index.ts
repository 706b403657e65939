export { DayBook, type DayBookDeps, type DayCloseResult, type DocumentPrinter } from './day-book.js';
export { DayArchive, type DayClose } from './archive.js';
export { businessDateOf, businessDayBounds, parseBusinessDate, type BusinessDate } from './business-day.js';
export {
  dayLine,
  voidSaleRef,
  CHARGED_OUTCOMES,
  DAY_BRAND_PATTERN,
  DAY_METHODS,
  DAY_OUTCOMES,
  DAY_PRODUCT_PATTERN,
  type DayLine,
  type DayOutcome,
} from './lines.js';
export { buildDayReport, type DayReport, type DayGroup } from './report.js';
export { dayReportDocument } from './print.js';
