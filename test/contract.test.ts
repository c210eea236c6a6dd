import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { contractProblem } from './support/contract.js';

// The published contract, checked as customers check it before generating their SDKs, and the
// check every black-box test's answers go through (test/support/contract.ts) shown to bite.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the OpenAPI document', () => {
  it('lints clean with Redocly', async () => {
    const { stdout } = await promisify(execFile)(
      path.join(root, 'node_modules/.bin/redocly'),
      ['lint', 'rest-facade/openapi.json', '--format=json'],
      { cwd: root },
    );
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('describes every refusal: the problem schema is defined, not a reference to itself', async () => {
    const problem = { type: 'about:blank', status: 401, code: 'unauthorized', title: 'Not signed in', detail: 'x', request_id: 'r' };
    expect(contractProblem('GET', '/guest/v1/consent', 401, 'application/problem+json', problem, JSON.stringify(problem))).toBeUndefined();
    expect(contractProblem('GET', '/guest/v1/consent', 401, 'application/problem+json', { code: 1 }, '{"code":1}')).toMatch(
      /does not fit its schema/,
    );
  });

  it('finds an answer that breaks it: an unlisted status, another content type, a body of another shape', () => {
    expect(contractProblem('GET', '/guest/v1/consent', 418, 'application/json', {}, '{}')).toMatch(/does not list/);
    expect(contractProblem('GET', '/guest/v1/consent', 200, 'text/plain', 'ok', 'ok')).toMatch(/came as text\/plain/);
    expect(contractProblem('GET', '/guest/v1/consent', 200, 'application/json', { offers_by_push: 'yes' }, '{}')).toMatch(
      /does not fit its schema/,
    );
    expect(
      contractProblem(
        'GET',
        '/guest/v1/consent',
        200,
        'application/json',
        { offers_by_email: false, offers_by_push: true, changed_at: null },
        '{}',
      ),
    ).toBeUndefined();
    // Routes outside the document (GraphQL, operations, an unknown path) are not its business.
    expect(contractProblem('GET', '/healthz', 200, 'application/json', {}, '{}')).toBeUndefined();
  });
});
