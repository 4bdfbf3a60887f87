// A test helper for gRPC stand-ins: handlers that refuse every RPC of a
// service definition with UNIMPLEMENTED, to spread under the few a test
// implements, so an unexpected call fails loudly instead of hanging.
import { DomainError } from '@folio/errors';

/** Handlers typed from a ts-proto service definition, as @folio/grpc's ServiceHandlers (without the call context). */
export type StandInHandlers<D> = {
  [K in keyof D]: D[K] extends {
    requestStream: true;
    responseStream: false;
    requestDeserialize: (bytes: Buffer) => infer Req;
    responseSerialize: (value: infer Res) => Buffer;
  }
    ? (requests: AsyncIterable<Req>) => Promise<Res>
    : D[K] extends { requestDeserialize: (bytes: Buffer) => infer Req; responseSerialize: (value: infer Res) => Buffer }
      ? (request: Req) => Promise<Res>
      : never;
};

/** One UNIMPLEMENTED handler per method of `definition` (a ts-proto service definition). */
export function unimplementedHandlers<D extends object>(definition: D, answeredBy: string): StandInHandlers<D> {
  return Object.fromEntries(
    Object.keys(definition).map((method) => [
      method,
      async () => {
        throw new DomainError('UNIMPLEMENTED', `Not implemented here: answered by ${answeredBy}.`);
      },
    ]),
  ) as unknown as StandInHandlers<D>;
}
