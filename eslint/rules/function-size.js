// Small functions named for what they hold (docs/architecture.md; the file limit is 400 lines): a function
// longer than `max` lines (its first to its last line, as a reader scrolls it) is refused, except those
// listed with their length today in eslint/function-size-exceptions.js, each of which may shrink, never
// grow; one that fits the limit must leave the list (the list only shrinks).

/** The name a reader finds a function by: `Class.method`, `name`, or `<anonymous>`. */
function nameOf(node) {
  const parent = node.parent;
  if (node.type === 'FunctionDeclaration' && node.id) return node.id.name;
  if (parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') {
    const cls = parent.parent?.parent;
    const key = parent.key.type === 'PrivateIdentifier' ? `#${parent.key.name}` : (parent.key.name ?? parent.key.value);
    return cls?.id ? `${cls.id.name}.${key}` : String(key);
  }
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent?.type === 'Property' && parent.key.type === 'Identifier') return parent.key.name;
  return '<anonymous>';
}

export default {
  meta: {
    type: 'suggestion',
    docs: { description: 'functions of at most `max` lines, but for a named list of exceptions that only shrinks' },
    schema: [
      {
        type: 'object',
        properties: {
          max: { type: 'integer', minimum: 1 },
          exceptions: { type: 'object', additionalProperties: { type: 'integer' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      long: '{{name}} is {{lines}} lines long (the limit is {{max}}): split it into functions named for what they hold',
      grew: '{{name}} grew to {{lines}} lines (its exception allows {{allowed}}): an exception may shrink, never grow',
      fits: '{{name}} is {{lines}} lines long, within the limit of {{max}}: remove "{{key}}" from eslint/function-size-exceptions.js',
    },
  },
  create(context) {
    const { max = 100, exceptions = {} } = context.options[0] ?? {};
    const file = context.filename
      .slice(context.cwd.length + 1)
      .split('\\')
      .join('/');
    const check = (node) => {
      const lines = node.loc.end.line - node.loc.start.line + 1;
      const name = nameOf(node);
      const key = `${file}:${name}`;
      const allowed = exceptions[key];
      const data = { name, lines, max, key, allowed };
      if (allowed === undefined) {
        if (lines > max) context.report({ node, messageId: 'long', data });
      } else if (lines > allowed) context.report({ node, messageId: 'grew', data });
      else if (lines <= max) context.report({ node, messageId: 'fits', data });
    };
    return { FunctionDeclaration: check, FunctionExpression: check, ArrowFunctionExpression: check };
  },
};
