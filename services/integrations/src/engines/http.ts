// The hosted adapters' HTTP calls: fetch with the breaker's abort signal and
// an error that keeps the provider's status (never its body: it may echo the
// key or the reader's text).
export class ProviderHttpError extends Error {
  override readonly name = 'ProviderHttpError';
  constructor(
    readonly provider: string,
    readonly status: number,
  ) {
    super(`${provider} answered HTTP ${status}`);
  }
}

export async function postJson(
  provider: string,
  url: string,
  body: unknown,
  options: { headers?: Record<string, string>; signal?: AbortSignal | undefined },
): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...options.headers },
    body: JSON.stringify(body),
    ...(options.signal && { signal: options.signal }),
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new ProviderHttpError(provider, response.status);
  }
  return response;
}
