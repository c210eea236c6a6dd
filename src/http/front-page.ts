import { html, renderPage, type Html, type RenderedPage } from '../lib/html/index.js';

// What `GET /` and `GET /api-reference` answer: server-rendered pages (src/lib/html: escaping by
// construction, no script, the stylesheet inline), so a newcomer who opens the base address finds
// every way in, and the REST reference is read without anything fetched from elsewhere.

const BRAND = { name: 'CRM service', color: '#3b5bdb', logoUrl: null };

export interface FrontLinks {
  /** The demo app's help site, when the demo is here. */
  helpSite?: string | undefined;
  /** The staff console, once there is one. */
  staffConsole?: string | undefined;
  /** The demo site (a customer's page with the web messenger), when the demo is here. */
  demoSite?: string | undefined;
}

const entry = (href: string, title: string, text: Html | string) =>
  html`<li>
    <a href="${href}"
      ><span>${title}<span class="summary">${text}</span></span></a
    >
  </li>`;

export function frontPage(links: FrontLinks): RenderedPage {
  const body = html`<main>
    <div class="content wrap">
      <h1 class="page-title">Customer messaging service</h1>
      <p class="lead">
        This server runs the guest, server and public REST APIs (under /guest/v1, /server/v1 and /public/v1), the staff GraphQL API with
        live subscriptions, the public help sites, and the durable processes behind them.
      </p>
      <h2 class="section-title">For staff</h2>
      <div class="panel">
        <ul class="list">
          ${
            links.staffConsole
              ? entry(links.staffConsole, 'Staff console', 'The inbox, tickets, the help center and settings.')
              : html`<li id="staff-console">
                  <span class="summary">The staff console is not built yet: staff work through the GraphQL API below.</span>
                </li>`
          }
          ${entry('/graphql', 'GraphiQL: the staff GraphQL API', 'Sign in with signIn, then send its token as Authorization: Bearer crm_st_….')}
          ${links.helpSite ? entry(links.helpSite, 'Help site of the demo app', 'The public help center, as readers see it.') : null}
          ${
            links.demoSite
              ? entry(links.demoSite, 'Demo site with the web messenger', 'A customer’s page with the messenger on it, signed in as Ada.')
              : null
          }
        </ul>
      </div>
      <h2 class="section-title">REST APIs</h2>
      <div class="panel">
        <ul class="list">
          ${entry('/api-reference', 'API reference', 'Every REST operation, its parameters, request and answers.')}
          ${entry('/openapi.json', 'OpenAPI document', 'The same, as OpenAPI 3.1 JSON, for clients and code generators.')}
        </ul>
      </div>
      <h2 class="section-title">Operations</h2>
      <div class="panel">
        <ul class="list">
          ${entry('/healthz', 'Health', 'The process answers.')}
          ${entry('/readyz', 'Readiness', 'The database answers and the server is not shutting down.')}
          ${entry('/metrics', 'Metrics', 'Prometheus text format.')}
        </ul>
      </div>
    </div>
  </main>`;
  return renderPage({ lang: 'en', title: 'CRM service', brand: BRAND, homeHref: '/', siteName: 'Home', body, noindex: true });
}

// --- The API reference: a small reader of the OpenAPI document the service serves ---------------

interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  format?: string;
  additionalProperties?: boolean | Schema;
  const?: unknown;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface Content {
  content?: Record<string, { schema?: Schema }>;
  description?: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: Content;
  responses?: Record<string, Content>;
  security?: Record<string, string[]>[];
}
export interface OpenApiLike {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const anchor = (kind: string, name: string) => `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A schema's type in a few words, with links to named schemas. */
function typeOf(s: Schema | undefined, depth = 0): Html {
  if (!s) return html`any`;
  if (s.$ref) return html`<a href="#${anchor('schema', refName(s.$ref))}">${refName(s.$ref)}</a>`;
  if (depth > 3) return html`…`;
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return html`${alternatives.map((a, i) => html`${i ? ' | ' : ''}${typeOf(a, depth + 1)}`)}`;
  if (s.allOf) return html`${s.allOf.map((a, i) => html`${i ? ' & ' : ''}${typeOf(a, depth + 1)}`)}`;
  if (s.const !== undefined) return html`${JSON.stringify(s.const)}`;
  if (s.enum) return html`${s.enum.map((v) => JSON.stringify(v)).join(' | ')}`;
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  return html`${types.map((t, i) => {
    const one = t === 'array' ? html`${typeOf(s.items, depth + 1)}[]` : t === 'object' && s.properties ? html`object` : html`${t}`;
    return html`${i ? ' | ' : ''}${one}${s.format ? ` (${s.format})` : ''}`;
  })}${types.length ? '' : 'any'}`;
}

const bodyTypes = (c: Content | undefined) =>
  Object.entries(c?.content ?? {}).map(([media, { schema }]) => html`<code>${media}</code> ${typeOf(schema)}`);

function operationHtml(path: string, method: string, op: Operation): Html {
  const id = anchor('op', op.operationId ?? `${method}-${path}`);
  const params = op.parameters ?? [];
  return html`<section class="panel" id="${id}">
    <h3><code>${method.toUpperCase()} ${path}</code></h3>
    ${op.summary ? html`<p class="lead">${op.summary}</p>` : null} ${op.description ? html`<p>${op.description}</p>` : null}
    ${
      op.security?.length
        ? html`<p class="meta">
            Credentials: ${op.security.map((s, i) => html`${i ? ' or ' : ''}${Object.keys(s).join(' + ') || 'none'}`)}
          </p>`
        : html`<p class="meta">Credentials: none</p>`
    }
    ${
      params.length
        ? html`<h4>Parameters</h4>
            <ul>
              ${params.map(
                (p) =>
                  html`<li>
                    <code>${p.name}</code> (${p.in}${p.required ? ', required' : ''}):
                    ${typeOf(p.schema)}${p.description ? html` — ${p.description}` : null}
                  </li>`,
              )}
            </ul>`
        : null
    }
    ${
      op.requestBody
        ? html`<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>
            <ul>
              ${bodyTypes(op.requestBody).map((b) => html`<li>${b}</li>`)}
            </ul>`
        : null
    }
    <h4>Answers</h4>
    <ul>
      ${Object.entries(op.responses ?? {}).map(
        ([status, r]) =>
          html`<li>
            <strong>${status}</strong>
            ${r.description ?? ''}${bodyTypes(r).length ? html`: ${bodyTypes(r).map((b, i) => html`${i ? ', ' : ''}${b}`)}` : null}
          </li>`,
      )}
    </ul>
  </section>`;
}

function schemaHtml(name: string, s: Schema): Html {
  const required = new Set(s.required ?? []);
  return html`<section class="panel" id="${anchor('schema', name)}">
    <h3><code>${name}</code></h3>
    ${s.description ? html`<p>${s.description}</p>` : null}
    ${
      s.properties
        ? html`<ul>
            ${Object.entries(s.properties).map(
              ([prop, p]) =>
                html`<li>
                  <code>${prop}</code>${required.has(prop) ? ' (required)' : ''}:
                  ${typeOf(p)}${p.description ? html` — ${p.description}` : null}
                </li>`,
            )}
          </ul>`
        : html`<p>${typeOf(s)}</p>`
    }
  </section>`;
}

/** The API reference: operations grouped by tag (each under its path and method), then the named schemas. */
export function apiReferencePage(doc: OpenApiLike): RenderedPage {
  const groups = new Map<string, { path: string; method: string; op: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), { path, method, op }]);
    }
  const tags = [...groups.keys()].sort((a, b) => a.localeCompare(b));
  const schemas = Object.entries(doc.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const body = html`<main>
    <div class="content wrap">
      <h1 class="page-title">${doc.info.title} ${doc.info.version}: API reference</h1>
      <p class="lead">
        Read from <a href="/openapi.json">/openapi.json</a>, the OpenAPI document this server serves and is tested against.
      </p>
      <nav aria-label="Areas">
        <h2 class="section-title">Areas</h2>
        <ul>
          ${tags.map(
            (tag) =>
              html`<li>
                <a href="#${anchor('tag', tag)}">${tag}</a>:
                ${groups.get(tag)!.map(
                  ({ path, method, op }, i) =>
                    html`${i ? ', ' : ''}<a href="#${anchor('op', op.operationId ?? `${method}-${path}`)}"
                          ><code>${method.toUpperCase()} ${path}</code></a
                        >`,
                )}
              </li>`,
          )}
          <li><a href="#schemas">Schemas</a></li>
        </ul>
      </nav>
      ${tags.map(
        (tag) =>
          html`<h2 class="section-title" id="${anchor('tag', tag)}">${tag}</h2>
            ${groups.get(tag)!.map(({ path, method, op }) => operationHtml(path, method, op))}`,
      )}
      <h2 class="section-title" id="schemas">Schemas</h2>
      ${schemas.map(([name, s]) => schemaHtml(name, s))}
    </div>
  </main>`;
  return renderPage({
    lang: 'en',
    title: `${doc.info.title}: API reference`,
    brand: BRAND,
    homeHref: '/',
    siteName: 'API reference',
    body,
  });
}
