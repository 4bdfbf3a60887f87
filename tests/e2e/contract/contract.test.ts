// The contract test: every answer the end-to-end run received (written down
// by test/contract-recorder.ts) against the OpenAPI document the gateway
// publishes. Each answer's status must be one its operation documents, and a
// JSON body must match that status's schema; every operation must have been
// exercised. Runs after the end-to-end tests (./dev test), never beside them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_URL } from '../test/client.js';
import { CONTRACT_DIR, type RecordedExchange } from '../test/contract-recorder.js';

type Responses = Record<string, { content?: Record<string, { schema?: unknown }> }>;
interface Operation {
  key: string;
  method: string;
  template: string;
  pattern: RegExp;
  responses: Responses;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

let document: { paths: Record<string, Record<string, { responses?: Responses }>> };
let operations: Operation[];
let exchanges: RecordedExchange[];
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

function operationOf(method: string, path: string): Operation | undefined {
  // Literal paths win over templated ones (`/reader/settings` before `/reader/{issue_id}/...`).
  const candidates = operations.filter((operation) => operation.method === method && operation.pattern.test(path));
  return candidates.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0))[0];
}

function validatorFor(operation: Operation, status: string, mediaType: string): ValidateFunction | undefined {
  const key = `${operation.key} ${status} ${mediaType}`;
  if (validators.has(key)) return validators.get(key);
  const schema = operation.responses[status]?.content?.[mediaType]?.schema;
  const validator =
    schema === undefined
      ? undefined
      : ajv.compile({ $ref: `openapi#/paths/${pointer(operation.template)}/${operation.method}/responses/${status}/content/${pointer(mediaType)}/schema` });
  if (validator) validators.set(key, validator);
  return validator;
}

describe('the OpenAPI document against what the end-to-end run received', () => {
  beforeAll(async () => {
    document = (await (await fetch(`${GATEWAY_URL}/openapi.json`)).json()) as typeof document;
    ajv.addSchema(document as object, 'openapi');
    operations = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({
          key: `${method.toUpperCase()} ${template}`,
          method,
          template,
          pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
          responses: operation.responses ?? {},
        })),
    );
    exchanges = readdirSync(CONTRACT_DIR)
      .filter((name) => name.endsWith('.jsonl'))
      .flatMap((name) => readFileSync(join(CONTRACT_DIR, name), 'utf8').split('\n').filter(Boolean))
      .map((line) => JSON.parse(line) as RecordedExchange);
  });

  it('when an operation answered, then with a status its document lists and a body its schema allows', () => {
    const problems = new Map<string, string>();
    for (const exchange of exchanges) {
      const operation = operationOf(exchange.method, exchange.path);
      if (!operation) continue; // a path the API does not have (tests of 404s and hostile input)
      const status = String(exchange.status);
      const documented = operation.responses[status] ? status : operation.responses.default ? 'default' : undefined;
      if (!documented) {
        problems.set(`${operation.key} ${status}`, `status ${status} is not documented (${Object.keys(operation.responses).join(', ')})`);
        continue;
      }
      if (exchange.body === undefined) continue;
      const mediaType = exchange.contentType.split(';')[0]!.trim();
      const validate = validatorFor(operation, documented, mediaType) ?? validatorFor(operation, documented, 'application/json');
      if (!validate) continue;
      let body: unknown;
      try {
        body = JSON.parse(exchange.body);
      } catch {
        problems.set(`${operation.key} ${status}`, 'the body is not JSON although its type says so');
        continue;
      }
      if (!validate(body)) {
        const error = validate.errors?.[0];
        problems.set(`${operation.key} ${status}`, `${error?.instancePath || '/'} ${error?.message} (${JSON.stringify(error?.params)})`);
      }
    }
    expect(exchanges.length, `no answers recorded in ${CONTRACT_DIR}: run the end-to-end tests first`).toBeGreaterThan(0);
    expect(Object.fromEntries(problems)).toEqual({});
  });

  it('when the run is over, then every operation of the document was exercised with an answer it documents', () => {
    const exercised = new Set<string>();
    for (const exchange of exchanges) {
      const operation = operationOf(exchange.method, exchange.path);
      if (operation && (operation.responses[String(exchange.status)] || operation.responses.default)) exercised.add(operation.key);
    }
    expect(operations.map((operation) => operation.key).filter((key) => !exercised.has(key))).toEqual([]);
  });
});
