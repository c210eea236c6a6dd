import { z } from 'zod';
import { batchItems } from './http/event-batch.js';
import type { AnyRoute } from './http/route.js';

// The OpenAPI 3.1 document of every REST route, from the same zod schemas that validate requests.

const Problem = z
  .object({
    type: z.string(),
    status: z.number().int(),
    code: z.string().describe('Stable value to switch on; the README lists them.'),
    title: z.string(),
    detail: z.string(),
    errors: z
      .array(z.object({ field: z.string().describe('Path of the bad member, such as events.3.name'), message: z.string() }))
      .optional(),
    request_id: z.string(),
  })
  .meta({ id: 'Problem' });

const STATUS_TEXT: Record<number, string> = {
  400: 'The request could not be read; the problem names the field',
  401: 'No credential or a wrong one',
  403: 'Refused',
  404: 'Not found',
  409: 'Refused as things stand',
  413: 'Too large',
  415: 'The body is declared in a charset other than UTF-8',
  422: 'A value that is not right',
  429: 'Too many requests; wait for Retry-After seconds',
  503: 'Not set up here yet, or the database connection was lost mid-request (nothing was done; send it again after Retry-After)',
};

const security: Record<AnyRoute['surface'], Record<string, string[]>[]> = {
  guest: [
    { appKey: [], userToken: [] },
    { appKey: [], userId: [] },
  ],
  server: [{ serverKey: [] }],
  public: [],
};

export function openApiDocument(routes: AnyRoute[], baseUrl: string) {
  const schemas: Record<string, unknown> = {};
  const toSchema = (schema: z.ZodType, io: 'input' | 'output') => {
    const raw = JSON.stringify(z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', reused: 'inline' }));
    const json = JSON.parse(raw.replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
    const defs = (json.$defs ?? {}) as Record<string, unknown>;
    delete json.$defs;
    delete json.$schema;
    Object.assign(schemas, defs);
    return json;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters = [
      ...paramsOf(route.params, 'path', toSchema),
      ...paramsOf(route.query, 'query', toSchema),
      ...paramsOf(route.headers, 'header', toSchema),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = {
        description: r.description,
        ...(r.schema
          ? { content: { [r.contentType ?? 'application/json']: { schema: toSchema(r.schema, 'output') } } }
          : r.contentType
            ? { content: { [r.contentType]: { schema: { type: 'string', format: 'binary' } } } }
            : {}),
      };
    }
    for (const status of answeredBy(route)) {
      responses[String(status)] = {
        // A route may say what a refusal means for it (its `responses` entry of that status).
        description: route.responses[status]?.description ?? STATUS_TEXT[status] ?? 'Refused',
        ...(status === 429 || status === 503
          ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
          : {}),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
    }
    responses.default = {
      description: 'Something failed on our side (code internal): try again later; nothing was half done',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    (paths[route.path] ??= {})[route.method] = {
      operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/(^|[/_-])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
      summary: route.summary,
      tags: [route.tag],
      security: security[route.surface],
      ...(parameters.length ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: toSchema(route.body, 'input') },
                ...(route.form
                  ? { 'application/x-www-form-urlencoded': { schema: { type: 'object', description: route.form.description } } }
                  : {}),
              },
            },
          }
        : {}),
      responses,
    };
  }
  // A schema with an id comes back as a reference to itself; its definition lands in `schemas`.
  toSchema(Problem, 'output');
  // The events of a batch, which batches name by reference (event-batch.ts).
  for (const item of batchItems) toSchema(item, 'input');
  return {
    openapi: '3.1.0',
    info: { title: 'Customer messaging and support service', version: '1' },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        appKey: { type: 'apiKey', in: 'header', name: 'X-CRM-App-Key' },
        userToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (HS256, signed with the identity secret)' },
        userId: { type: 'apiKey', in: 'header', name: 'X-CRM-User-Id', description: 'Only for apps with unverified sign-in' },
        serverKey: { type: 'http', scheme: 'bearer', description: 'crm_sk_… or crm_sk_test_…' },
      },
    },
  };
}

/**
 * Every refusal a route can answer: its own, and those every route of its kind answers (a path
 * that is not UTF-8, a lost database connection, a refused credential, too many requests; a body
 * too large on every method that may carry one, as it arrives, even where the route ignores it;
 * a body in another charset where the route reads it).
 */
function answeredBy(route: AnyRoute): number[] {
  const mayCarryBody = route.method !== 'get';
  const common = [
    400,
    429,
    503,
    ...(route.surface === 'public' ? [] : [401]),
    ...(mayCarryBody ? [413] : []),
    ...(route.body ? [415] : []),
  ];
  return [...new Set([...route.errors, ...common])].sort((a, b) => a - b);
}

function paramsOf(
  schema: z.ZodType | undefined,
  where: 'path' | 'query' | 'header',
  toSchema: (s: z.ZodType, io: 'input') => Record<string, unknown>,
) {
  if (!schema || !(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || !s.safeParse(undefined).success,
    schema: toSchema(s, 'input'),
  }));
}
