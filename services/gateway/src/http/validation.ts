// Request validation with zod, reported the way clients of the API expect:
// 422 {message, errors: {field: [reason]}} with field names as the client
// sent them (`refresh_token`, `per_page`, `userReaderSettings.theme`).
import { z } from 'zod';

export type FieldErrors = Record<string, string[]>;

type Issue = z.core.$ZodIssue;

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function reason(issue: Issue, field: string, raw: unknown): string {
  if (raw === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union')) {
    return `The ${field} field is required.`;
  }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int' || issue.expected === 'number') return `The ${field} field must be a number.`;
      return `The ${field} field must be ${article(issue.expected)}.`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return `The ${field} field must be at least ${min} characters.`;
      if (issue.origin === 'array') return `The ${field} field must have at least ${min} items.`;
      return `The ${field} field must be at least ${min}.`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `The ${field} field must not be greater than ${max} characters.`;
      if (issue.origin === 'array') return `The ${field} field must not have more than ${max} items.`;
      return `The ${field} field must not be greater than ${max}.`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return `The ${field} field must be a valid email address.`;
      return `The ${field} field format is invalid.`;
    case 'invalid_value':
      return `The selected ${field} is invalid. Allowed: ${issue.values.map(String).join(', ')}.`;
    case 'not_multiple_of':
      return `The ${field} field is invalid.`;
    default:
      return issue.message && !issue.message.startsWith('Invalid input') ? issue.message : `The ${field} field is invalid.`;
  }
}

function article(expected: string): string {
  if (expected === 'object') return 'an object';
  if (expected === 'array') return 'an array';
  if (expected === 'boolean') return 'true or false';
  if (expected === 'int') return 'an integer';
  return `a ${expected}`;
}

/** Parses one part of a request; issues are added to `errors` under their field names. */
export function parsePart<S extends z.ZodType>(schema: S, data: unknown, errors: FieldErrors, rootName: string): z.output<S> | undefined {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = issue.path.map(String);
    const field = path.length ? path.join('.') : rootName;
    const reasons = (errors[field] ??= []);
    const text = reason(issue, field, valueAt(data, issue.path));
    if (!reasons.includes(text)) reasons.push(text);
  }
  return undefined;
}

const NUL = '\u0000';

/**
 * Refuses NUL characters anywhere in one part of a request, keys included:
 * no text field of the API means anything with one, and storage refuses it
 * (PostgreSQL under FerretDB answers SQLSTATE 22P05), so it is a 422 on the
 * field as sent instead of a 500 from whichever service keeps the text.
 * Iterative, so a deeply nested body cannot overflow the stack.
 */
export function rejectNulCharacters(data: unknown, errors: FieldErrors, rootName: string): void {
  const pending: { value: unknown; path: string[] }[] = [{ value: data, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) addNulReason(errors, path.length ? path.join('.') : rootName);
    } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      for (const [key, child] of Object.entries(value)) {
        const childPath = [...path, key];
        if (key.includes(NUL)) addNulReason(errors, childPath.join('.'));
        pending.push({ value: child, path: childPath });
      }
    }
  }
}

function addNulReason(errors: FieldErrors, field: string): void {
  const text = `The ${field} field must not contain NUL characters.`;
  const reasons = (errors[field] ??= []);
  if (!reasons.includes(text)) reasons.push(text);
}
