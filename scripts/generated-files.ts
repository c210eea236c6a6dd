import { lexicographicSortSchema, printSchema } from 'graphql';
import { openApiDocument } from '../rest-facade/openapi.js';
import { allRoutes } from '../rest-facade/routes.js';
import type { Services } from '../src/domain/context.js';
import { buildStaffSchema } from '../src/graphql/schema.js';

/** The committed files printed from code, by path from the project root. */
export async function generatedFiles(): Promise<Record<string, string>> {
  // Building the document reads only the routes' schemas, never the services.
  const routes = allRoutes({ svc: {} as Services });
  return {
    'schema.graphql': `${printSchema(lexicographicSortSchema(buildStaffSchema()))}\n`,
    'rest-facade/openapi.json': `${JSON.stringify(openApiDocument(routes, 'http://localhost:8080'), null, 2)}\n`,
  };
}
