import ts from 'typescript';

/** A message written where it is used: `t('English text', values?)`, with where its compiled form would go. */
export interface FoundMessage {
  text: string;
  /** Just after the call's last argument. */
  end: number;
  /** How many arguments the call has. */
  args: number;
}

/**
 * Every `t('...')` call of a source file whose first argument is a literal text (docs/decisions/0075): the
 * English catalogue is made of them (extract.ts), and the web build adds each one's compiled form (vite.config.ts).
 */
export function findMessages(code: string, fileName: string): FoundMessage[] {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, kind);
  const found: FoundMessage[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      (node.expression.text === 't' || node.expression.text === 'msg')
    ) {
      const [first] = node.arguments;
      const last = node.arguments[node.arguments.length - 1];
      if (first && last && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)))
        found.push({ text: first.text, end: last.end, args: node.arguments.length });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
