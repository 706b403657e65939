export {
  parseTefDial,
  writeTefDial,
  TefDialFormatError,
  type TefDialFields,
  type TefDialFormatProblem,
} from './codec.js';
