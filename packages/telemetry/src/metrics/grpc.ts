// RED metrics per gRPC method, named as the widely used go-grpc-prometheus
// series so existing dashboards and alerts apply unchanged.
import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './registry.js';

const LABELS = ['grpc_service', 'grpc_method', 'grpc_code'] as const;

const handled = new Counter({
  name: 'grpc_server_handled_total',
  help: 'gRPC calls completed on the server, by service, method and status code.',
  labelNames: LABELS,
  registers: [metricsRegistry],
});

const handling = new Histogram({
  name: 'grpc_server_handling_seconds',
  help: 'Time the server took to complete a gRPC call.',
  labelNames: LABELS,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

/** gRPC status numbers to their canonical names (grpc/doc/statuscodes.md). */
const CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

export function grpcCodeName(code: number): string {
  return CODE_NAMES[code] ?? 'UNKNOWN';
}

/** `/svc.catalog.v1.CatalogService/GetBook` -> service and method labels. */
export function splitGrpcPath(path: string): { grpc_service: string; grpc_method: string } {
  const [, service = 'unknown', method = path] = /^\/?([^/]+)\/(.+)$/.exec(path) ?? [];
  return { grpc_service: service, grpc_method: method };
}

/**
 * Starts timing one server call; call the returned function with the status
 * code the call ended with (0 for OK).
 */
export function observeGrpcCall(path: string): (code: number) => void {
  const stop = handling.startTimer();
  const names = splitGrpcPath(path);
  return (code) => {
    const labels = { ...names, grpc_code: grpcCodeName(code) };
    handled.inc(labels);
    stop(labels);
  };
}
