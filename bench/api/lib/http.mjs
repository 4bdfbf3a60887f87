// One JSON request to the gateway. node:http rather than fetch because stores
// are told apart by the Host header, which fetch does not let a caller set.
import http from 'node:http';

let addressCounter = 0;

/**
 * A client address for X-Forwarded-For (the gateway trusts it from loopback
 * outside production): every request of the benchmark comes from another one
 * of 10.0.0.0/8, so the per-IP limits meant for one real client do not turn
 * a load test into 429s.
 */
export function nextClientIp() {
  addressCounter = (addressCounter + 1) % 16_000_000;
  const n = addressCounter + 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export function request(baseUrl, method, path, { body, headers = {}, token } = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, baseUrl),
      {
        method,
        headers: {
          accept: 'application/json',
          'x-forwarded-for': nextClientIp(),
          ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(token && { authorization: `Bearer ${token}` }),
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A request that must answer `expected`; its response. */
export async function expectStatus(baseUrl, expected, method, path, options) {
  const response = await request(baseUrl, method, path, options);
  if (response.status !== expected) {
    throw new Error(`${method} ${path} answered ${response.status} (expected ${expected}): ${response.text.slice(0, 300)}`);
  }
  return response;
}
