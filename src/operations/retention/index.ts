export {
  DayRetention,
  isArchivedDay,
  type ArchivedDay,
  type ArchivedPayment,
  type ArchivedTask,
  type ArchiveOutcome,
  type RetentionOptions,
} from './archiver.js';
export { readArchivedDay, archivedPayment, archivedReceipt } from './read.js';
export { heldJournalIds, settledState } from './settled.js';
