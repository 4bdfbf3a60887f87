// The OpenAPI 3.1 document, generated from the route table: paths, request
// schemas, security, tenant headers and the error responses each route can
// give follow from the same declarations the gateway enforces.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { requiresJwt, requiresReaderToken, type Route } from '../http/route.js';
import { ErrorBody, ValidationErrorBody } from '../routes/schemas.js';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const PARAMETERS = {
  SvcTenantId: {
    name: 'X-Svc-Tenant-Id',
    in: 'header',
    required: true,
    description: "Tenant of a single-tenant endpoint (an issue's `tenant_id`). Missing, malformed or unknown: 412.",
    schema: { type: 'integer', minimum: 1 },
  },
  CustomAppTenantId: {
    name: 'X-CustomApp-Tenant-Id',
    in: 'header',
    required: false,
    description: 'Tenant that owns a custom-branded app; default 1 (the generic app). Not a positive integer: 422.',
    schema: { type: 'integer', minimum: 1, default: 1 },
  },
  AppLang: {
    name: 'X-App-Lang',
    in: 'header',
    required: false,
    description: 'Language of e-mails, labels and help texts; anything else counts as `en`.',
    schema: { type: 'string', enum: ['en', 'es', 'pt', 'it'], default: 'en' },
  },
  AppBaseVersion: {
    name: 'X-AppBase-Version',
    in: 'header',
    required: false,
    description: 'App version (numeric parts, e.g. 1.28.0); selects response formats. Unreadable values count as absent.',
    schema: { type: 'string', example: '1.28.0' },
  },
  AppVersion: {
    name: 'X-App-Version',
    in: 'header',
    required: false,
    description: 'App version, attached to help requests.',
    schema: { type: 'string' },
  },
  OptionalReaderToken: {
    name: 'reader-token',
    in: 'header',
    required: false,
    description: 'Reader session token of downloaded content (resume).',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Save only over this version (an ETag of an earlier answer, or `*` for any stored one); a stale one: 412 with the current state.',
    schema: { type: 'string' },
  },
  RequestId: {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'Correlation id (1-128 of A-Z a-z 0-9 . _ : -); echoed in the response, generated when absent or malformed.',
    schema: { type: 'string' },
  },
} as const;

const ref = (name: keyof typeof PARAMETERS) => ({ $ref: `#/components/parameters/${name}` });
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

function securityOf(route: Route): Record<string, string[]>[] {
  switch (route.auth) {
    case 'jwt':
      return [{ bearerAuth: [] }];
    case 'jwt-query':
      return [{ accessTokenQuery: [] }];
    case 'reader-token':
      return [{ readerToken: [] }];
    case 'jwt+reader-token':
      return [{ bearerAuth: [], readerToken: [] }];
    case 'device-key':
      return [{ deviceKeyBasic: [] }, { bearerAuth: [] }];
    case 'publisher':
      return [{ bearerAuth: [] }, { publisherApiKey: [] }];
    case 'none':
      return [];
  }
}

function parametersOf(route: Route) {
  const parameters = [ref('RequestId'), ref('AppLang'), ref('AppBaseVersion')];
  if (route.tenant === 'single') parameters.unshift(ref('SvcTenantId'));
  if (route.uses?.includes('app-tenant')) parameters.push(ref('CustomAppTenantId'));
  if (route.uses?.includes('app-version')) parameters.push(ref('AppVersion'));
  if (route.uses?.includes('optional-reader-token')) parameters.push(ref('OptionalReaderToken'));
  if (route.uses?.includes('if-match')) parameters.push(ref('IfMatch'));
  return parameters;
}

function responsesOf(route: Route) {
  const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }>; headers?: object }> = {};
  for (const [status, doc] of Object.entries(route.responses)) {
    responses[status] = {
      description: doc.description,
      ...(doc.schema && { content: { [doc.contentType ?? 'application/json']: { schema: doc.schema } } }),
      ...(doc.content && { content: Object.fromEntries(Object.entries(doc.content).map(([type, schema]) => [type, { schema }])) }),
      ...(doc.headers && { headers: doc.headers }),
    };
  }
  const error = (status: number, description: string, schema: z.ZodType = ErrorBody, retryAfter = false) => {
    responses[String(status)] ??= {
      description,
      content: route.errorContent && status < 500 ? { [route.errorContent.contentType]: { schema: route.errorContent.schema } } : json(schema),
      ...(retryAfter && {
        headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
      }),
    };
  };
  for (const [status, description] of Object.entries(route.errors ?? {})) {
    const code = Number(status);
    if (route.errorContentType) responses[status] ??= { description, content: { [route.errorContentType]: { schema: z.string() } } };
    else error(code, description, code === 422 ? ValidationErrorBody : ErrorBody, code === 429);
  }
  if (route.invalidStatus === 400) error(400, 'Bad request: unknown value or malformed body', ValidationErrorBody);
  if (route.body) error(400, 'Malformed JSON body');
  if (route.body) error(413, 'Body over the size limit');
  if (route.rawBody) {
    error(400, 'Content-Length is not a number of bytes');
    error(413, 'The file is over the size limit (refused before it is read when Content-Length says so)');
    error(415, `Content-Type is not one of ${route.rawBody.mediaTypes.join(', ')}, or not the one the resource takes`);
  }
  if (route.tenant === 'store') error(404, 'No store has this Host');
  if (requiresJwt(route.auth)) error(401, 'Missing, invalid or expired access token, or the session ended: {"message": "The given data was invalid."}');
  if (requiresReaderToken(route.auth)) error(403, 'Missing, invalid or expired reader-token');
  if (route.auth === 'publisher') {
    error(401, 'Missing, invalid, expired or revoked access token or API key: {"message": "The given data was invalid."}');
    error(403, 'Not staff of this tenant (or not its owner, where the route says so), or an API key of another tenant');
    error(429, 'Too many wrong API keys from this address', ErrorBody, true);
  }
  if (route.tenant === 'single') error(412, 'X-Svc-Tenant-Id missing, not a positive integer, or no such tenant');
  if (route.tenant === 'multi') error(412, 'X-Svc-Tenant-Id sent to a multi-tenant endpoint');
  if (route.params || route.query || route.body || route.uses?.includes('app-tenant')) {
    error(route.invalidStatus ?? 422, 'The given data was invalid', ValidationErrorBody);
  }
  if (route.rateLimit) {
    error(429, `More than ${route.rateLimit.limit} requests per ${route.rateLimit.windowSeconds} s from this IP`, ErrorBody, true);
  }
  error(429, 'Over the global per-IP request rate', ErrorBody, true);
  error(503, 'An upstream service is unavailable', ErrorBody, true);
  return responses;
}

export function buildOpenApiDocument(routes: readonly Route[], options: { serverUrl: string; version?: string }): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from login, social login or refresh (ES256, identity JWKS).',
  });
  registry.registerComponent('securitySchemes', 'publisherApiKey', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'fpk_…',
    description: 'A publisher API key (POST /api/v2/publisher/api-keys), bound to one tenant: X-Svc-Tenant-Id must name it.',
  });
  registry.registerComponent('securitySchemes', 'readerToken', {
    type: 'apiKey',
    in: 'header',
    name: 'reader-token',
    description: 'Reader session token from a reader session response.',
  });
  registry.registerComponent('securitySchemes', 'accessTokenQuery', {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'The access token in the query string (purchase redirect, opened in a browser).',
  });
  registry.registerComponent('securitySchemes', 'deviceKeyBasic', {
    type: 'http',
    scheme: 'basic',
    description: 'HTTP Basic: the e-mail address and a device key (POST /api/v2/user/device-keys); OPDS catalogs of a store.',
  });
  for (const [name, parameter] of Object.entries(PARAMETERS)) registry.registerComponent('parameters', name, parameter as never);

  for (const route of routes) {
    const storeServer = route.tenant === 'store';
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: operationId(route),
      summary: route.summary,
      ...(route.description && { description: route.description }),
      tags: [route.tag],
      security: securityOf(route),
      parameters: parametersOf(route),
      ...(storeServer && {
        servers: [
          {
            url: '{store_url}',
            description: "A tenant's store: the gateway reached with the tenant's domain as Host",
            variables: { store_url: { default: 'http://sur.localhost:8080' } },
          },
        ],
      }),
      request: {
        ...(route.params && { params: route.params }),
        ...(route.query && { query: route.query }),
        ...(route.body && { body: { required: true, content: json(route.body) } }),
        // A file as the body: its bytes, in one of the media types the route takes.
        ...(route.rawBody && {
          body: {
            required: true,
            description: route.rawBody.description,
            content: Object.fromEntries(route.rawBody.mediaTypes.map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }])),
          },
        }),
      },
      responses: responsesOf(route) as never,
    });
  }

  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Folio API',
      version: options.version ?? '2.0.0',
      description:
        'Digital publications reader and library. API v2 under /api/v2 (JWT bearer, tenant headers); the reader API v1 and the ' +
        "purchase redirect on a tenant's store (the gateway reached with the tenant's domain as Host). Errors are JSON " +
        '`{"message"}`; validation errors (422) add `errors` keyed by field name as sent. 429 and 503 carry Retry-After.',
    },
    servers: [{ url: options.serverUrl }],
  });
}

function operationId(route: Route): string {
  const words = route.path
    .replace(/\{([^}]+)\}/g, 'by-$1')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [route.method, ...words].map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}
