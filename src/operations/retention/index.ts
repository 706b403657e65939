export { DayRetention } from './archiver.js';
export { readArchivedDay, archivedReceipt } from './read.js';
export { heldJournalIds } from './settled.js';
