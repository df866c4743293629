import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileTokenSource, TOKEN_ARTIFACT_FILE } from '../anvil.ts';

describe('the test token artifact', () => {
  it('is test/fixtures/TestUSDC.sol as solc compiles it today (else: npm run fixtures:token -w @harvest/server)', () => {
    expect(JSON.parse(readFileSync(TOKEN_ARTIFACT_FILE, 'utf8'))).toEqual(compileTokenSource());
  });
});
