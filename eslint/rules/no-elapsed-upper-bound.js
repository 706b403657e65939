// Tests never fail on a timing (the house rule): on a shared 2-core machine a step that takes 50 ms alone takes
// seconds under load, and an upper bound on elapsed wall time turns that into a red build that says nothing about
// the code. This rule refuses `expect(<elapsed>).toBeLessThan(...)` (and its kin), where <elapsed> is
// `Date.now() - t`, `performance.now() - t`, or a variable declared as one. A lower bound (a wait of at least X)
// stays allowed: load only makes it longer. What an upper bound meant to catch — a hang, a wait for the wrong
// timeout — is caught by making the wrong wait far longer than the test's own timeout.

const CLOCKS = new Set(['Date.now', 'performance.now']);
const UPPER_BOUNDS = new Set(['toBeLessThan', 'toBeLessThanOrEqual']);

/** `Date.now()` / `performance.now()`. */
const isClockCall = (node) =>
  node?.type === 'CallExpression' &&
  node.callee.type === 'MemberExpression' &&
  node.callee.object.type === 'Identifier' &&
  node.callee.property.type === 'Identifier' &&
  CLOCKS.has(`${node.callee.object.name}.${node.callee.property.name}`);

/** `<clock>() - t`. */
const isElapsed = (node) => node?.type === 'BinaryExpression' && node.operator === '-' && isClockCall(node.left);

/** The expression a `const`/`let` identifier was declared with, found through the scope. */
function initOf(context, identifier) {
  let scope = context.sourceCode.getScope(identifier);
  while (scope) {
    const variable = scope.set.get(identifier.name);
    if (variable) {
      const def = variable.defs.find((d) => d.type === 'Variable');
      return def?.node.init ?? undefined;
    }
    scope = scope.upper;
  }
  return undefined;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'no upper bound on elapsed wall time in a test (tests never fail on a timing)' },
    schema: [],
    messages: {
      timing:
        "an upper bound on elapsed time ({{text}}) fails under load, not on a defect: catch a hang or a wrong wait with the test's own timeout (make the wrong wait far longer than it), or log the figure",
    },
  },
  create(context) {
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        if (!UPPER_BOUNDS.has(callee.property.name)) return;
        const subject = callee.object;
        if (subject.type !== 'CallExpression' || subject.callee.type !== 'Identifier') return;
        if (subject.callee.name !== 'expect') return;
        const arg = subject.arguments[0];
        const elapsed = isElapsed(arg) || (arg?.type === 'Identifier' && isElapsed(initOf(context, arg)));
        if (elapsed) context.report({ node, messageId: 'timing', data: { text: context.sourceCode.getText(arg) } });
      },
    };
  },
};
