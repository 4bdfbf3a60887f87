// Help subjects and help requests (routed by identity through events).
import { z } from 'zod';
import { route } from '../http/route.js';
import { helpSubjectsToWire } from '../render/help.js';

export const helpRoutes = [
  route({
    method: 'get',
    path: '/api/v2/help',
    tag: 'Help',
    summary: 'Help subjects of the app, labelled in X-App-Lang',
    auth: 'jwt',
    tenant: 'multi',
    uses: ['app-tenant'],
    responses: {
      200: {
        description: 'Subject key to label',
        schema: z.record(z.string(), z.string()).meta({ example: { 'missing-issues': "I can't find my publications", other: 'Other' } }),
      },
    },
    handler: async ({ appTenantId, lang, services }) => {
      // The subjects are labelled here, from their stored labels.
      const { subjects } = await services.identity.listHelpSubjects({ appTenantId });
      return { status: 200, body: helpSubjectsToWire(subjects, lang) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v2/help',
    tag: 'Help',
    summary: 'Send a help request',
    description:
      'Routed to support e-mail, engineering or a messaging channel by subject. `delete-account-and-data` permanently deletes the ' +
      'account unless the user is an admin.',
    auth: 'jwt',
    tenant: 'multi',
    uses: ['app-tenant', 'app-version'],
    body: z.object({
      subject: z.string().min(1).max(64).meta({ description: 'One of the keys of GET /api/v2/help' }),
      message: z.string().min(10).max(5000),
      engine_version: z.string().max(64).optional(),
      device: z.string().max(128).optional(),
      so: z.string().max(64).optional().meta({ description: 'Operating system' }),
    }),
    responses: { 201: { description: 'Accepted; empty body' } },
    handler: async ({ body, user, appTenantId, lang, appVersion, appBaseVersion, services }) => {
      await services.identity.submitHelpRequest({
        userId: user.id,
        appTenantId,
        subject: body.subject,
        message: body.message,
        lang,
        engineVersion: body.engine_version,
        device: body.device,
        so: body.so,
        appVersion,
        appBaseVersion: appBaseVersion?.toString(),
      });
      return { status: 201 };
    },
  }),
];
