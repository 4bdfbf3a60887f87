import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTemplate } from '@folio/telemetry';
import { routeDispatcher } from './dispatch.js';

/** Answers what the dispatcher handed the route: its name, params and template. */
const answer =
  (name: string): RequestHandler =>
  (req, res) => {
    res.json({ name, params: req.params, template: routeTemplate(req) });
  };

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(
    routeDispatcher([
      { method: 'get', path: '/api/v2/user', handlers: [answer('user')] },
      { method: 'post', path: '/api/v2/help', handlers: [answer('help post')] },
      { method: 'get', path: '/api/v2/help', handlers: [answer('help get')] },
      { method: 'put', path: '/api/v2/reader/:issue_id/last-location', handlers: [answer('last-location')] },
      { method: 'put', path: '/api/v2/reader/notes/:note_id', handlers: [answer('note')] },
      { method: 'get', path: '/kosync/syncs/progress/:document', handlers: [answer('progress')] },
      {
        method: 'post',
        path: '/api/v2/reader/:issue_id/sessions',
        handlers: [
          (req, _res, next) => {
            seen.push('gate');
            next();
          },
          async () => {
            await Promise.resolve();
            throw new Error('handler failed');
          },
        ],
      },
      { method: 'get', path: '/api/v2/gate', handlers: [(_req, _res, next) => next(new Error('refused')), answer('never')] },
    ]),
  );
  app.use((_req, res) => {
    res.status(404).json({ name: 'not found' });
  });
  const errors: ErrorRequestHandler = (error: { details?: { httpStatus?: number }; message: string }, _req, res, _next) => {
    res.status(error.details?.httpStatus ?? 500).json({ error: error.message });
  };
  app.use(errors);
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const call = async (method: string, path: string) => {
  const response = await fetch(base + path, { method });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
};

describe('routeDispatcher', () => {
  it('when a route matches, then its handler gets the decoded params and the route template is recorded', async () => {
    const { status, body } = await call('GET', '/kosync/syncs/progress/AbC%20d?x=1');
    expect(status).toBe(200);
    expect(body).toEqual({ name: 'progress', params: { document: 'AbC d' }, template: '/kosync/syncs/progress/:document' });
  });

  it('when the path differs in case or has a trailing slash, then it matches as express matched it', async () => {
    expect((await call('GET', '/API/V2/USER')).body.name).toBe('user');
    expect((await call('GET', '/api/v2/user/')).body.name).toBe('user');
  });

  it('when the method is not the route’s, then the request goes on (404 here)', async () => {
    expect((await call('DELETE', '/api/v2/user')).status).toBe(404);
  });

  it('when HEAD asks for a GET route, then the GET route answers', async () => {
    const { status, headers } = await call('HEAD', '/api/v2/user');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('application/json');
  });

  it('when OPTIONS asks for a path of the table, then 200 with the sorted Allow list, as express answered', async () => {
    const { status, headers, text } = await call('OPTIONS', '/api/v2/help');
    expect(status).toBe(200);
    expect(headers.get('allow')).toBe('GET, HEAD, POST');
    expect(text).toBe('GET, HEAD, POST');
    expect((await call('OPTIONS', '/api/v2/nothing')).status).toBe(404);
  });

  it('when a static segment and a parameter could both match, then the static route wins', async () => {
    expect((await call('PUT', '/api/v2/reader/notes/abc')).body).toMatchObject({ name: 'note', params: { note_id: 'abc' } });
    expect((await call('PUT', '/api/v2/reader/1003/last-location')).body).toMatchObject({ name: 'last-location', params: { issue_id: '1003' } });
  });

  it('when a parameter is badly percent-encoded, then 400 (not a 404, not a 500)', async () => {
    const { status, body } = await call('GET', '/kosync/syncs/progress/%E0%A4%A');
    expect(status).toBe(400);
    expect(body.error).toBe('Bad request.');
    expect((await call('GET', '/nowhere/%E0%A4%A')).status).toBe(404);
  });

  it('when a handler rejects or passes an error on, then the error handler answers and later handlers do not run', async () => {
    const rejected = await call('POST', '/api/v2/reader/1003/sessions');
    expect(rejected).toMatchObject({ status: 500, body: { error: 'handler failed' } });
    expect(seen).toEqual(['gate']);
    expect(await call('GET', '/api/v2/gate')).toMatchObject({ status: 500, body: { error: 'refused' } });
  });
});
