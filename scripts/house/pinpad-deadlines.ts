// Every blocking pinpad command has a deadline (the house rule of docs/pinpad.md, "Deadlines"). ABECS 2.20 §2.2.2
// gives a blocking command no response time: the link waits for its answer without limit, so an answer lost on the
// wire holds the sale, and the terminal, until the daemon restarts, unless the sender gave the command a deadline.
// This walks the product (src/ and drivers/) through the TypeScript compiler: every call that passes the command
// spec of a blocking command (the Blocante box of ABECS 2.20, tables/pinpad/commands.ts, held to the
// specification's text by test/unit/tables/pinpad/commands.flags.test.ts) has its options' `signal` traced back,
// through variables, helper functions, parameters and their callers (an interface's callers too), to where it is
// made. Each way it can be made must be a deadline: `withDeadline(...)` (src/core/deadline.ts) or
// `AbortSignal.timeout(...)`, or an `AbortSignal.any` joining one. A send with no signal, a cancel-only signal, or
// one the walk cannot read is a finding.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One way a blocking command's signal is made, as the walk found it. */
export interface Leaf {
  readonly kind: 'deadline' | 'none' | 'unread' | 'uncalled';
  /** Where it is made (`file:line`) and what. */
  readonly at: string;
  readonly text: string;
  /** The steps from the send to here, each `file:line what`. */
  readonly chain: readonly string[];
}

export interface BlockingSend {
  readonly command: string;
  /** `file:line` of the call that passes the command's spec. */
  readonly at: string;
  readonly leaves: readonly Leaf[];
}

const DEADLINE_CALLS = new Set(['withDeadline', 'AbortSignal.timeout']);

/** Every .ts file below `dir` (relative to `root`), declarations excluded. */
function tsFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(root, rel));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(path.join(root, rel));
  }
  return out;
}

/** The product's program (src/ and drivers/ under the repository's compiler options), with `overrides` (absolute path → text) planted. */
export function productProgram(root: string, overrides: Readonly<Record<string, string>> = {}): ts.Program {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), (f) => ts.sys.readFile(f));
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => overrides[path.resolve(f)] ?? read(f);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, v, onError, create) => {
    const text = overrides[path.resolve(f)];
    return text === undefined ? getSourceFile(f, v, onError, create) : ts.createSourceFile(f, text, v, true);
  };
  return ts.createProgram([...tsFiles(root, 'src'), ...tsFiles(root, 'drivers')], options, host);
}

class Walk {
  readonly #checker: ts.TypeChecker;
  readonly #root: string;
  /** Every call of the product by the name it calls (`f(...)`, `x.f(...)`), resolved only when a walk asks. */
  readonly #byName = new Map<string, ts.CallExpression[]>();

  constructor(
    readonly program: ts.Program,
    root: string,
    readonly files: readonly ts.SourceFile[],
  ) {
    this.#checker = program.getTypeChecker();
    this.#root = root;
    for (const f of files)
      visit(f, (n) => {
        if (!ts.isCallExpression(n)) return;
        const callee = n.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText();
        this.#byName.set(name, [...(this.#byName.get(name) ?? []), n]);
      });
  }

  where(n: ts.Node): string {
    const f = n.getSourceFile();
    const line = f.getLineAndCharacterOfPosition(n.getStart()).line + 1;
    return `${path.relative(this.#root, f.fileName)}:${line}`;
  }

  /** The declaration `e` names, through imports and namespace members. */
  declarationOf(e: ts.Expression): ts.Declaration | undefined {
    let s = this.#checker.getSymbolAtLocation(ts.isPropertyAccessExpression(e) ? e.name : e);
    if (s && s.flags & ts.SymbolFlags.Alias) s = this.#checker.getAliasedSymbol(s);
    return s?.valueDeclaration ?? s?.declarations?.[0];
  }

  /** The command id of `e` when it is a command spec (an object with a literal `id`, `encode` and `decode`). */
  specId(e: ts.Expression, depth = 0): string | undefined {
    const d = this.declarationOf(e);
    if (!d || !ts.isVariableDeclaration(d) || !d.initializer || depth > 3) return undefined;
    const init = skipOuter(d.initializer);
    if (!ts.isObjectLiteralExpression(init))
      return ts.isIdentifier(init) || ts.isPropertyAccessExpression(init) ? this.specId(init, depth + 1) : undefined;
    const names = new Set(init.properties.map((p) => p.name?.getText()));
    const id = init.properties.find((p) => p.name?.getText() === 'id');
    if (!names.has('encode') || !names.has('decode') || !id || !ts.isPropertyAssignment(id)) return undefined;
    return ts.isStringLiteral(id.initializer) ? id.initializer.text : undefined;
  }

  /** The declarations whose callers are a method's callers too: the interface members (and base members) it implements. */
  #aliases(d: ts.Declaration): ts.Declaration[] {
    const out = [d];
    const cls = d.parent;
    if (!(ts.isMethodDeclaration(d) || ts.isPropertyDeclaration(d)) || !ts.isClassLike(cls)) return out;
    const name = d.name.getText();
    for (const h of cls.heritageClauses ?? [])
      for (const t of h.types) {
        const prop = this.#checker.getTypeAtLocation(t).getProperty(name);
        for (const pd of prop?.declarations ?? []) if (pd !== d) out.push(pd);
      }
    return out;
  }

  callersOf(fn: ts.SignatureDeclaration): ts.CallExpression[] {
    const name = fn.name?.getText();
    if (!name) return [];
    const aliases = new Set(this.#aliases(fn));
    return (this.#byName.get(name) ?? []).filter((c) => {
      const d = this.#checker.getResolvedSignature(c)?.declaration;
      return d !== undefined && !ts.isJSDocSignature(d) && aliases.has(d);
    });
  }

  /** The leaves of an options argument (`{ signal }`, a variable, a parameter, a spread). */
  options(e: ts.Expression | undefined, at: ts.Node): Leaf[] {
    if (!e) return [this.#leaf('none', at, 'no options')];
    return this.#memo(e, 'options', () => {
      const x = skipOuter(e);
      if (ts.isObjectLiteralExpression(x)) {
        const own = x.properties.find((p) => p.name?.getText() === 'signal');
        if (own && ts.isPropertyAssignment(own)) return this.signal(own.initializer);
        if (own && ts.isShorthandPropertyAssignment(own)) {
          const d = this.#checker.getShorthandAssignmentValueSymbol(own)?.valueDeclaration;
          return this.#declared(d, own.name, 'signal');
        }
        const spread = x.properties.filter(ts.isSpreadAssignment);
        if (spread.length === 0) return [this.#leaf('none', x, 'options without a signal')];
        return spread.flatMap((s) => this.options(s.expression, s));
      }
      if (ts.isConditionalExpression(x)) return this.#conditional(x, (b) => this.options(b, b));
      if (ts.isIdentifier(x) && x.text === 'undefined') return [this.#leaf('none', x, 'no options')];
      if (ts.isNewExpression(x) && x.expression.getText() === 'AbortController')
        return [this.#leaf('none', x, 'an AbortController: a cancel, no deadline')];
      return this.#named(x, 'options');
    });
  }

  /** The leaves of a signal expression. */
  signal(e: ts.Expression): Leaf[] {
    return this.#memo(e, 'signal', () => {
      const x = skipOuter(e);
      if (ts.isIdentifier(x) && x.text === 'undefined') return [this.#leaf('none', x, 'no signal')];
      if (ts.isCallExpression(x)) {
        const callee = x.expression.getText();
        if (DEADLINE_CALLS.has(callee)) return [this.#leaf('deadline', x, callee)];
        if (callee === 'AbortSignal.any' && x.arguments[0] && ts.isArrayLiteralExpression(x.arguments[0])) {
          const all = x.arguments[0].elements.map((el) => this.signal(el));
          return all.find((leaves) => leaves.every((l) => l.kind === 'deadline')) ?? all.flat();
        }
        return this.#returned(x);
      }
      if (ts.isConditionalExpression(x)) return this.#conditional(x, (b) => this.signal(b));
      if (ts.isPropertyAccessExpression(x) && x.name.text === 'signal') return this.options(x.expression, x);
      return this.#named(x, 'signal');
    });
  }

  /** Each expression is walked once (its leaves kept); one met again while it is walked closes a cycle and adds nothing. */
  #memo(e: ts.Expression, as: 'signal' | 'options', walk: () => Leaf[]): Leaf[] {
    const memo = as === 'signal' ? this.#signals : this.#options;
    const known = memo.get(e);
    if (known) return known;
    memo.set(e, []);
    const seen = new Set<string>();
    const leaves = walk().filter((l) => {
      const key = `${l.kind} ${l.at} ${l.text}`;
      return !seen.has(key) && Boolean(seen.add(key));
    });
    memo.set(e, leaves);
    return leaves;
  }

  readonly #signals = new Map<ts.Node, Leaf[]>();
  readonly #options = new Map<ts.Node, Leaf[]>();

  /** `c ? a : b` where one side is the other's signal present only when `c` holds (`o.signal ? { signal: o.signal } : {}`). */
  #conditional(x: ts.ConditionalExpression, each: (b: ts.Expression) => Leaf[]): Leaf[] {
    const [yes, no] = [each(x.whenTrue), each(x.whenFalse)];
    const guarded = x.whenTrue.getText().includes(x.condition.getText());
    if (no.every((l) => l.kind === 'none') && guarded) return this.signal(x.condition);
    return [...yes, ...no];
  }

  /** A call to a function of the product: what each of its `return`s gives. */
  #returned(x: ts.CallExpression): Leaf[] {
    const d = this.#checker.getResolvedSignature(x)?.declaration;
    const body = d && !ts.isJSDocSignature(d) && 'body' in d ? (d.body as ts.Node | undefined) : undefined;
    const what = `${x.expression.getText()}(...)`;
    if (!d || !body) return [this.#leaf('unread', x, `${what}, no body to read`)];
    const step = (leaves: Leaf[]): Leaf[] => this.#through(`${this.where(x)} ${what}`, leaves);
    if (!ts.isBlock(body)) return step(this.signal(body as ts.Expression));
    const returns: ts.Expression[] = [];
    visit(body, (n) => {
      if (ts.isFunctionLike(n)) return 'skip';
      if (ts.isReturnStatement(n) && n.expression) returns.push(n.expression);
    });
    if (returns.length === 0) return [this.#leaf('unread', x, `${what} returns nothing`)];
    return step(returns.flatMap((r) => this.signal(r)));
  }

  /** An identifier: a variable's initializer, or a parameter's arguments at every caller. */
  #named(x: ts.Expression, as: 'signal' | 'options'): Leaf[] {
    return this.#declared(ts.isIdentifier(x) ? this.declarationOf(x) : undefined, x, as);
  }

  #declared(d: ts.Declaration | undefined, x: ts.Expression, as: 'signal' | 'options'): Leaf[] {
    if (d && ts.isVariableDeclaration(d) && d.initializer && ts.isIdentifier(d.name)) {
      const leaves = as === 'signal' ? this.signal(d.initializer) : this.options(d.initializer, d);
      return this.#through(`${this.where(d)} ${d.name.text}`, leaves);
    }
    if (d && ts.isBindingElement(d) && ts.isObjectBindingPattern(d.parent) && ts.isParameter(d.parent.parent))
      return this.#parameter(d.parent.parent, 'options');
    if (d && ts.isParameter(d)) return this.#parameter(d, as);
    return [this.#leaf('unread', x, x.getText())];
  }

  /** A parameter: what every caller of its function passes there. */
  #parameter(p: ts.ParameterDeclaration, as: 'signal' | 'options'): Leaf[] {
    const fn = p.parent;
    const index = fn.parameters.indexOf(p);
    const name = fn.name?.getText() ?? 'a function';
    const callers = this.callersOf(fn);
    const here = `${this.where(p)} parameter ${p.name.getText()} of ${name}`;
    if (callers.length === 0)
      return this.#through(here, [this.#leaf('uncalled', p, `nothing in the product calls ${name}`)]);
    return this.#through(
      here,
      callers.flatMap((c) => {
        const arg = c.arguments[index];
        const call = `${this.where(c)} ${c.expression.getText()}(...)`;
        if (!arg) return [this.#leaf('none', c, `${c.expression.getText()}(...) passes no ${as}`)];
        return this.#through(call, as === 'signal' ? this.signal(arg) : this.options(arg, c));
      }),
    );
  }

  /** `leaves`, reached through `step`. */
  #through(step: string, leaves: Leaf[]): Leaf[] {
    return leaves.map((l) => ({ ...l, chain: [step, ...l.chain] }));
  }

  #leaf(kind: Leaf['kind'], n: ts.Node, text: string): Leaf {
    return { kind, at: this.where(n), text, chain: [] };
  }
}

function skipOuter(e: ts.Expression): ts.Expression {
  let x = e;
  while (
    ts.isParenthesizedExpression(x) ||
    ts.isAsExpression(x) ||
    ts.isNonNullExpression(x) ||
    ts.isSatisfiesExpression(x)
  )
    x = x.expression;
  return x;
}

/** Visits `n` and its descendants; `f` returning 'skip' leaves a node's children out. */
function visit(n: ts.Node, f: (n: ts.Node) => 'skip' | void): void {
  if (f(n) === 'skip') return;
  n.forEachChild((c) => visit(c, f));
}

/**
 * Every call in src/ and drivers/ that passes the spec of a command of `blocking`, with the leaves of its signal:
 * the options are the argument after the request (`run(spec, request, options)`, the drivers' one shape).
 */
export function blockingSends(program: ts.Program, root: string, blocking: ReadonlySet<string>): BlockingSend[] {
  const inProduct = (f: ts.SourceFile): boolean => {
    const rel = path.relative(root, f.fileName);
    return !f.isDeclarationFile && (rel.startsWith('src/') || rel.startsWith('drivers/'));
  };
  const walk = new Walk(program, root, program.getSourceFiles().filter(inProduct));
  const sends: BlockingSend[] = [];
  for (const f of walk.files)
    visit(f, (n) => {
      if (!ts.isCallExpression(n)) return;
      n.arguments.forEach((a, i) => {
        const id = walk.specId(a);
        if (!id || !blocking.has(id)) return;
        sends.push({ command: id, at: walk.where(n), leaves: walk.options(n.arguments[i + 2], n) });
      });
    });
  return sends;
}

/** The sends with a way to their signal that is no deadline, one line each for a report. */
export function findings(sends: readonly BlockingSend[]): string[] {
  return sends.flatMap((s) =>
    s.leaves
      .filter((l) => l.kind !== 'deadline')
      .map(
        (l) =>
          `${s.at} ${s.command}: ${l.kind === 'none' ? 'no deadline' : l.kind} (${l.text}) at ${l.at}${l.chain.length ? ` via ${l.chain.join(' ← ')}` : ''}`,
      ),
  );
}
