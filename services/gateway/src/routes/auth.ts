// Login by e-mail code and by social provider, token refresh, session check
// and logout: all answered by identity.
import { z } from 'zod';
import { identity } from '@folio/proto';
import { RATE_RULES } from '../http/rate-limit.js';
import { route } from '../http/route.js';
import { deliverableEmail, langSchema, TokenResponse } from './schemas.js';
import { tokensToWire } from '../render/identity.js';

const PROVIDERS = {
  google: identity.SocialProvider.SOCIAL_PROVIDER_GOOGLE,
  facebook: identity.SocialProvider.SOCIAL_PROVIDER_FACEBOOK,
  apple: identity.SocialProvider.SOCIAL_PROVIDER_APPLE,
} as const;

const tokenReply = { 200: { description: 'Token response', schema: TokenResponse } };

export const authRoutes = [
  route({
    method: 'post',
    path: '/api/v2/login/token/init',
    tag: 'Login',
    summary: 'Send a login code by e-mail',
    description:
      'Creates the user in the app tenant (X-CustomApp-Tenant-Id) if absent. The e-mail language is the body `lang`, else X-App-Lang. ' +
      'Throttled per e-mail and per IP by identity (429).',
    auth: 'none',
    tenant: 'none',
    uses: ['app-tenant'],
    body: z.object({ email: deliverableEmail, lang: langSchema.optional() }),
    responses: { 201: { description: 'Code sent; empty body' } },
    errors: { 429: 'Too many codes requested for this e-mail or from this IP' },
    handler: async ({ body, lang, appTenantId, clientIp, services }) => {
      await services.identity.startEmailLogin({ email: body.email, lang: body.lang ?? lang, appTenantId, clientIp });
      return { status: 201 };
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/login/token/validate',
    tag: 'Login',
    summary: 'Exchange an e-mailed code for tokens',
    auth: 'none',
    tenant: 'none',
    body: z.object({ email: deliverableEmail, code: z.string().min(1).max(32) }),
    responses: tokenReply,
    errors: { 401: 'Wrong or expired code', 429: 'Too many attempts from this IP' },
    handler: async ({ body, clientIp, services }) => {
      const { tokens } = await services.identity.completeEmailLogin({ email: body.email, code: body.code, clientIp });
      return { status: 200, body: tokensToWire(tokens) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/login/social/{provider}',
    tag: 'Login',
    summary: 'Log in with a social identity provider',
    description: 'For `apple` send the id token as `access_token`. 400 for an unknown provider or a malformed body.',
    auth: 'none',
    tenant: 'none',
    uses: ['app-tenant'],
    params: z.object({ provider: z.enum(['google', 'facebook', 'apple']) }),
    body: z.object({ access_token: z.string().min(1).max(8192) }),
    invalidStatus: 400,
    responses: tokenReply,
    errors: {
      401: 'The provider refused the token ({"message": "Unauthorized."})',
      422: 'The provider gave no e-mail address',
    },
    handler: async ({ params, body, appTenantId, services }) => {
      const { tokens } = await services.identity.socialLogin({
        provider: PROVIDERS[params.provider],
        accessToken: body.access_token,
        appTenantId,
      });
      return { status: 200, body: tokensToWire(tokens) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/auth/refresh',
    tag: 'Login',
    summary: 'Rotate a refresh token',
    description:
      'The refresh token is the credential (no Authorization). Single use: concurrent refreshes with one token yield one success. ' +
      'At most 10 requests per minute per IP.',
    auth: 'none',
    tenant: 'none',
    uses: ['app-tenant'],
    rateLimit: RATE_RULES.refresh,
    body: z.object({ refresh_token: z.string().min(1).max(512) }),
    responses: tokenReply,
    errors: { 401: 'Token invalid, expired or already rotated' },
    handler: async ({ body, appTenantId, services }) => {
      const { tokens } = await services.identity.refreshToken({ refreshToken: body.refresh_token, appTenantId });
      return { status: 200, body: tokensToWire(tokens) };
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/auth/session/validate',
    tag: 'Login',
    summary: 'Check the session and the concurrent-session limit',
    auth: 'jwt',
    tenant: 'none',
    enforceSessionLimit: true,
    responses: {
      200: {
        description: 'Session is valid',
        schema: z.object({ CODE: z.literal('success'), message: z.string().meta({ example: 'Session is valid' }) }),
      },
    },
    errors: { 409: 'Session limit reached for the user' },
    handler: async () => ({ status: 200, body: { CODE: 'success', message: 'Session is valid' } }),
  }),
  route({
    method: 'get',
    path: '/api/v2/logout',
    tag: 'Login',
    summary: "Log out: delete every mobile session with the token's jti",
    auth: 'jwt',
    tenant: 'none',
    responses: { 200: { description: 'Logged out; empty body' } },
    handler: async ({ user, services }) => {
      await services.identity.logout({ jti: user.jti });
      return { status: 200 };
    },
  }),
];
