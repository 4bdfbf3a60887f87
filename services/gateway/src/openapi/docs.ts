// /openapi.json and the browsable /docs page. Swagger UI's assets are served
// from the swagger-ui-dist package (no CDN), and the page has no inline
// script, so the strict Content-Security-Policy of the gateway holds.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router } from 'express';
import type { OpenApiDocument } from './document.js';

const ASSETS = new Set(['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-16x16.png', 'favicon-32x32.png']);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Folio API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="stylesheet" href="/docs/assets/index.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout'
  });
});
`;

function swaggerUiDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

export function docsRouter(document: OpenApiDocument): Router {
  const router = Router();
  const assets = swaggerUiDir();
  const body = JSON.stringify(document);

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(body);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file;
    if (!ASSETS.has(file)) {
      next();
      return;
    }
    res.set('Cache-Control', 'public, max-age=3600');
    res.sendFile(file, { root: assets });
  });
  return router;
}
