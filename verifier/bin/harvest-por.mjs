#!/usr/bin/env node
// The verifier is TypeScript read as it is (no build step to trust): tsx compiles it on the fly.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
