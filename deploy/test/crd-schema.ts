// Validates an object against a CustomResourceDefinition's structural schema
// (openAPIV3Schema) the way the API server does with strict field validation:
// types, required fields, enums, patterns, bounds, and no field the schema does
// not declare (unless x-kubernetes-preserve-unknown-fields). CEL rules
// (x-kubernetes-validations) are the one thing not evaluated.
import { readFileSync, readdirSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  anyOf?: Schema[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

export interface Crd {
  group: string;
  kind: string;
  versions: Map<string, Schema>;
}

/** Every CRD under a directory (the vendored ones), by `group/kind`. */
export function loadCrds(dir: string): Map<string, Crd> {
  const crds = new Map<string, Crd>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.yaml')) continue;
    for (const doc of parseAllDocuments(readFileSync(`${entry.parentPath}/${entry.name}`, 'utf8'))) {
      const object = doc.toJS() as { kind?: string; spec?: any } | null;
      if (object?.kind !== 'CustomResourceDefinition') continue;
      const versions = new Map<string, Schema>();
      for (const version of object.spec.versions) if (version.served) versions.set(version.name, version.schema.openAPIV3Schema);
      crds.set(`${object.spec.group}/${object.spec.names.kind}`, { group: object.spec.group, kind: object.spec.names.kind, versions });
    }
  }
  return crds;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problems of `value` against `schema`, each with its path; empty when it is valid. */
export function validate(schema: Schema, value: unknown, path = ''): string[] {
  if (value === null) return schema.nullable || schema['x-kubernetes-preserve-unknown-fields'] ? [] : [`${path}: null is not allowed`];
  if (schema['x-kubernetes-int-or-string']) {
    return Number.isInteger(value) || typeof value === 'string' ? [] : [`${path}: must be an integer or a string`];
  }
  if (schema.anyOf && !schema.anyOf.some((option) => validate({ ...schema, anyOf: undefined, ...option }, value, path).length === 0)) {
    return [`${path}: matches none of anyOf`];
  }
  const problems: string[] = [];
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  switch (schema.type) {
    case 'object': {
      if (!isObject(value)) return [`${path}: must be an object`];
      for (const key of schema.required ?? []) if (!(key in value)) problems.push(`${path}.${key}: required`);
      for (const [key, child] of Object.entries(value)) {
        const childSchema = schema.properties?.[key] ?? (isObject(schema.additionalProperties) ? (schema.additionalProperties as Schema) : undefined);
        if (childSchema) problems.push(...validate(childSchema, child, `${path}.${key}`));
        else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true) problems.push(`${path}.${key}: unknown field`);
      }
      break;
    }
    case 'array':
      if (!Array.isArray(value)) return [`${path}: must be an array`];
      if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${path}: fewer than ${schema.minItems} items`);
      if (schema.maxItems !== undefined && value.length > schema.maxItems) problems.push(`${path}: more than ${schema.maxItems} items`);
      if (schema.items) value.forEach((item, index) => problems.push(...validate(schema.items!, item, `${path}[${index}]`)));
      break;
    case 'string':
      if (typeof value !== 'string') return [`${path}: must be a string`];
      if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) problems.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
      if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${path}: shorter than ${schema.minLength}`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${path}: longer than ${schema.maxLength}`);
      break;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || (schema.type === 'integer' && !Number.isInteger(value))) return [`${path}: must be ${schema.type === 'integer' ? 'an integer' : 'a number'}`];
      if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: below ${schema.minimum}`);
      if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: above ${schema.maximum}`);
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return [`${path}: must be a boolean`];
      break;
  }
  return problems;
}
