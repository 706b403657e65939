// `x as unknown as T` says "trust me" twice: the type checker can no longer see what x is. The product code
// has none (0 on 2026-11-29, 3 before this rule: the count had grown back from 0 within a day, with nothing
// to hold it); tests may, to build a malformed input on purpose.

/** Whether `node` is an `as unknown` (or `<unknown>`) cast. */
const castToUnknown = (node) =>
  (node.type === 'TSAsExpression' || node.type === 'TSTypeAssertion') &&
  node.typeAnnotation.type === 'TSUnknownKeyword';

export default {
  meta: {
    type: 'problem',
    docs: { description: 'no `as unknown as T` (a cast through unknown hides the value from the type checker)' },
    schema: [],
    messages: {
      double:
        'no `as unknown as {{type}}`: narrow the value (a type guard, instanceof, a schema) or type what holds it',
    },
  },
  create(context) {
    const check = (node) => {
      if (!castToUnknown(node.expression)) return;
      context.report({ node, messageId: 'double', data: { type: context.sourceCode.getText(node.typeAnnotation) } });
    };
    return { TSAsExpression: check, TSTypeAssertion: check };
  },
};
