export * from './vocabulary.js';
export * from './book.js';
export * from './shared.js';
export * from './visibility.js';
