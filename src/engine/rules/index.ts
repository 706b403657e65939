export * from './vocabulary.js';
export * from './book.js';
export * from './shared.js';
export * from './visibility.js';
export * from './render.js';
export * from './book-create.js';
export * from './rulebook.js';
export * from './book-cnp.js';
