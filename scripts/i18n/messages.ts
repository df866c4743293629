import ts from 'typescript';

/**
 * Every text of a source file written to be said in the person's language: the literal first argument of each
 * `t('...')` call, and of each `msg('...')` (a text kept in a table and said with t() where it is shown). The
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
      (node.expression.text === 't' || node.expression.text === 'msg')
    ) {
      const [first] = node.arguments;
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)))
        found.push({ text: first.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
