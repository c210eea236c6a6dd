import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// Every answer a black-box test receives from a route of the published document is held to it:
// the operation exists, the status is listed, the content type is the listed one and the body
// fits its schema. A route added later is held to its own document without anyone writing a check.

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };

const doc = JSON.parse(readFileSync(new URL('../../rest-facade/openapi.json', import.meta.url), 'utf8')) as Doc;
const ajv = new Ajv2020.default({ strict: false, allErrors: false, validateFormats: true });
addFormats.default(ajv);
// The document itself, its local references made absolute, so each response schema is compiled by pointer.
ajv.addSchema({ ...JSON.parse(JSON.stringify(doc).replaceAll('"#/components/', '"openapi#/components/')), $id: 'openapi' });

const routes = Object.keys(doc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** What is wrong with this answer by the document, or undefined when it fits (or no documented route answered it). */
export function contractProblem(
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: unknown,
  text: string,
): string | undefined {
  const bare = path.split('?')[0]!;
  const route = routes.find((r) => r.pattern.test(bare));
  const operation = route && doc.paths[route.template]![method.toLowerCase()];
  if (!route || !operation) return undefined; // not a documented operation: 404 and 405 answers
  // `default` stands for the 5xx a route answers when something failed on our side.
  const response = operation.responses[String(status)] ?? (status >= 500 ? operation.responses.default : undefined);
  if (!response) return `${method} ${route.template} answered ${status}, which its document does not list`;
  if (!response.content) return text ? `${method} ${route.template} ${status} has a body, but its document lists none` : undefined;
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (!(type in response.content))
    return `${method} ${route.template} ${status} came as ${type || 'no content type'}, not ${Object.keys(response.content).join(' or ')}`;
  const validate = ajv.getSchema(
    `openapi#/paths/${pointer(route.template, method.toLowerCase(), 'responses', String(status), 'content', type, 'schema')}`,
  );
  // A body that is no JSON (the open pixel's GIF) is checked for its type alone.
  if (validate && /json/.test(type) && !validate(body))
    return `${method} ${route.template} ${status} does not fit its schema: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`;
  return undefined;
}
