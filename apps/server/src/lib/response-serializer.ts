import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { toJSONSchema, type $ZodType } from 'zod/v4/core';

/**
 * Response serialization (docs/decisions/0079-request-path.md). Every response schema is a Zod schema
 * of the shared contract; the answer is written by a serializer compiled from its JSON Schema
 * (fast-json-stringify): it writes exactly the declared properties, so a field the schema does not list (a
 * hash, a token version) can never leave.
 *
 * `checked` (every test run, development): the answer is also produced by Zod's own serializer, which
 * validates it, and the two must be the same JSON (key order aside), so the whole test suite proves the compiled
 * serializer writes what the contract says. A schema that has no JSON Schema form keeps Zod's.
 */
export function responseSerializerCompiler(checked: boolean): FastifySerializerCompiler<$ZodType> {
  return (route) => {
    // Compiled on the route's first answer: most routes of an instance answer rarely, and start-up stays short.
    let serialize: ((data: unknown) => string) | null = null;
    return (data: unknown) => {
      serialize ??= build(route, checked);
      return serialize(data);
    };
  };
}

function build(route: Parameters<FastifySerializerCompiler<$ZodType>>[0], checked: boolean): (data: unknown) => string {
  const compiled = compile(route.schema);
  const zodSerialize = zodSerializerCompiler(route) as (data: unknown) => string;
  if (!compiled) return zodSerialize;
  if (!checked) return compiled;
  return (data: unknown) => {
    const expected = zodSerialize(data);
    const actual = compiled(data);
    if (!isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected)))
      throw new Error(
        `compiled serializer of ${route.method} ${route.url} differs from the contract:\n${actual}\n${expected}`,
      );
    return actual;
  };
}

function compile(schema: unknown): ((data: unknown) => string) | null {
  if (typeof schema !== 'object' || schema === null || !('_zod' in schema)) return null;
  try {
    const json = toJSONSchema(schema as $ZodType, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(json as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
  } catch {
    return null;
  }
}
