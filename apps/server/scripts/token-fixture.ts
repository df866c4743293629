/** `npm run fixtures:token -w @harvest/server`: compiles test/fixtures/TestUSDC.sol into test/fixtures/TestUSDC.json. */
import { writeFileSync } from 'node:fs';
import { compileTokenSource, TOKEN_ARTIFACT_FILE } from '../test/anvil.ts';

writeFileSync(TOKEN_ARTIFACT_FILE, `${JSON.stringify(compileTokenSource())}\n`);
console.log(`wrote ${TOKEN_ARTIFACT_FILE}`);
