import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The lint rule that keeps every text a person reads translatable (docs/decisions/0075): a literal rendered by a
 * component, or written into a text prop, fails `npm run lint`; the same text said with t() passes.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const eslint = new ESLint({ cwd: root });
const file = path.join(root, 'apps/web/src/features/example/components/example.tsx');

async function rulesBroken(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'react/jsx-no-literals' || m.ruleId === 'no-restricted-syntax')
    .map((m) => `${m.ruleId}: ${m.message}`);
}

const component = (jsx: string) =>
  `import { t } from '../../../lib/i18n.tsx';\nimport { Field } from '../../../components/ui/field.tsx';\nexport function Example({ n }: { n: number }) {\n  return ${jsx};\n}\n`;

describe('literal texts in components', () => {
  it('a text rendered as it is written fails', async () => {
    expect(await rulesBroken(component('<p>Withdraw All</p>'))).toEqual([
      expect.stringContaining('react/jsx-no-literals'),
    ]);
  });

  it('a text in a conditional, a template or a text prop fails too', async () => {
    expect(await rulesBroken(component("<p>{n > 1 ? 'Items' : 'Item'}</p>"))).toHaveLength(2);
    expect(await rulesBroken(component('<p>{`${n} items`}</p>'))).not.toHaveLength(0);
    expect(await rulesBroken(component('<Field label="Amount">{() => null}</Field>'))).toEqual([
      expect.stringContaining('no-restricted-syntax'),
    ]);
  });

  it('the same texts said with t() pass, and so do names and marks that read alike everywhere', async () => {
    expect(
      await rulesBroken(
        component(
          "<div><p>{t('Withdraw All')}</p><p>{n > 1 ? t('{n} items', { n }) : t('1 item')}</p><Field label={t('Amount')}>{() => null}</Field><span>Harvest Farm</span><span>USDC</span></div>",
        ),
      ),
    ).toEqual([]);
  });
});
