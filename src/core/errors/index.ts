export { ERROR_CODES, apiCodeOf, type ErrorCode } from './codes.js';
export { OmniposError, isOmniposError, exitCodeOf, httpStatusOf, type ErrorContext } from './omnipos-error.js';
