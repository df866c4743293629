import ts from 'typescript';

/**
 * Every text of a source file written to be said in the person's language: the literal first argument of each
 * `t('...')` call, of each `msg('...')` (a text kept in a table and said with t() where it is shown), and of each
 * `said('...', values, english)` (a text with values, said.ts; both branches of a `n === 1 ? '...' : '...'`). The
 * English catalogue is made of them (extract.ts; docs/decisions/0075).
 */
export function findMessages(code: string, fileName: string): { text: string }[] {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, kind);
  const found: { text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      ['t', 'msg', 'said'].includes(node.expression.text)
    ) {
      const literal = (e: ts.Expression | undefined): void => {
        if (e && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e))) found.push({ text: e.text });
        else if (e && ts.isConditionalExpression(e)) [e.whenTrue, e.whenFalse].forEach(literal);
      };
      literal(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
