// The house's own lint rules, one file each in eslint/rules/ (the plugin `omnipos` of eslint.config.js). A rule
// is shown refusing a planted violation in test/unit/lint/rules.test.ts.
import functionSize from './rules/function-size.js';
import layers from './rules/layers.js';
import noDoubleCast from './rules/no-double-cast.js';
import noElapsedUpperBound from './rules/no-elapsed-upper-bound.js';

export default {
  meta: { name: 'omnipos' },
  rules: {
    layers,
    'no-double-cast': noDoubleCast,
    'function-size': functionSize,
    'no-elapsed-upper-bound': noElapsedUpperBound,
  },
};
