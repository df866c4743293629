import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { toJSONSchema, type $ZodType } from 'zod/v4/core';

/**
 * Response serialization (docs/decisions/0055-lean-request-path.md). Every response schema
 * is a Zod schema of the shared contract; the answer is written by a serializer compiled from that
 * schema's JSON Schema (fast-json-stringify, what Fastify uses for JSON Schemas): it writes exactly the
 * declared properties, so a field the schema does not list (a hash, a token version) can never leave.
 * Zod's encode + JSON.stringify cost a fifth of the CPU of GET /api/user/me.
 *
 * `checked` (every test run, development): the answer is also produced by Zod's own serializer, which
 * validates it, and the two must be the same JSON (key order aside), so the whole test suite proves the compiled
 * serializer writes what the contract says. A schema that has no JSON Schema form keeps Zod's.
 */
export function responseSerializerCompiler(checked: boolean): FastifySerializerCompiler<$ZodType> {
  return (route) => {
    // Compiled on the route's first answer, not at start: a compiled serializer holds its own code and
    // validator, and most routes of an idle instance never answer (idle RSS, docs/BENCHMARKS.md).
    let serialize: ((data: unknown) => string) | null = null;
    return (data: unknown) => {
      serialize ??= build(route, checked);
      return serialize(data);
    };
  };
}

/**
 * An answer whose JSON text the route made before (docs/decisions/0059-analytics-pre-serialized-days.md: the
 * analytics answer joined from closed days serialized once, GET /api/user/me's answer kept per users row). The
 * text is sent as it is; when responses are checked, `data()` is serialized by the contract's own serializer and
 * the two must be the same JSON. JSON.stringify (a route without a response schema) writes the text too.
 */
class JsonText {
  constructor(
    readonly json: string,
    readonly data: () => unknown,
  ) {}

  /** JSON.stringify writes what the text holds. */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** `json` as the route's answer (typed as the answer it stands for, `T`; see JsonText). */
export function jsonText<T>(json: string, data: () => T): T {
  return new JsonText(json, data) as T;
}

/** The compiled serializer of one schema of the contract, for the parts of a JsonText (it must have a JSON Schema form). */
export function partSerializer<T>(schema: $ZodType<T>): (data: T) => string {
  const compiled = compile(schema);
  if (!compiled) throw new Error('partSerializer: the schema has no JSON Schema form');
  return compiled;
}

function build(route: Parameters<FastifySerializerCompiler<$ZodType>>[0], checked: boolean): (data: unknown) => string {
  const compiled = compile(route.schema);
  if (compiled && !checked) return (data) => (data instanceof JsonText ? data.json : compiled(data));
  const zodSerialize = zodSerializerCompiler(route) as (data: unknown) => string;
  if (!compiled) return (data) => (data instanceof JsonText ? zodSerialize(data.data()) : zodSerialize(data));
  return (data: unknown) => {
    const text = data instanceof JsonText ? data : null;
    const expected = zodSerialize(text ? text.data() : data);
    const actual = text ? text.json : compiled(data);
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
