// Tracing is on only when an OTLP endpoint is configured and not disabled.
import { describe, expect, it } from 'vitest';
import { tracingSettings } from '../src/settings.js';

const PACKAGE_DIR = new URL('..', import.meta.url).pathname;

describe('tracingSettings', () => {
  it('when no endpoint is configured, then tracing is off', () => {
    expect(tracingSettings({}, PACKAGE_DIR).enabled).toBe(false);
  });

  it('when an endpoint is configured, then tracing is on unless the SDK or the trace exporter is disabled', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, PACKAGE_DIR).enabled).toBe(true);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }, PACKAGE_DIR).enabled).toBe(true);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318', OTEL_SDK_DISABLED: 'TRUE' }, PACKAGE_DIR).enabled).toBe(false);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318', OTEL_TRACES_EXPORTER: 'none' }, PACKAGE_DIR).enabled).toBe(false);
  });

  it('when OTEL_SERVICE_NAME is unset, then the service is named after the package it starts from', () => {
    expect(tracingSettings({}, PACKAGE_DIR).serviceName).toBe('telemetry');
    expect(tracingSettings({ OTEL_SERVICE_NAME: 'catalog' }, PACKAGE_DIR).serviceName).toBe('catalog');
    expect(tracingSettings({}, '/nonexistent').serviceName).toBe('folio');
  });
});
