// Whether and how this process traces, read from the standard OTEL_* variables
// only (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/),
// so a platform team configures it the way it configures any other OTel app.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TracingSettings {
  /** False unless an OTLP endpoint is configured and the SDK is not disabled. */
  enabled: boolean;
  serviceName: string;
}

type Env = Record<string, string | undefined>;

export function tracingSettings(env: Env = process.env, cwd = process.cwd()): TracingSettings {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  const noExporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  return {
    enabled: Boolean(endpoint) && !disabled && !noExporter,
    serviceName: env.OTEL_SERVICE_NAME || serviceNameFromPackage(cwd),
  };
}

/** `@folio/catalog` started from services/catalog is the service `catalog`. */
function serviceNameFromPackage(cwd: string): string {
  try {
    const { name } = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { name?: string };
    if (name) return name.replace(/^@folio\//, '');
  } catch {
    // no package.json where the process started: fall through to a generic name
  }
  return 'folio';
}
