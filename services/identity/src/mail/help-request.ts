// The e-mail a help request becomes when it is routed to an inbox (support,
// or engineering/messaging when no webhook is configured).
import type { HelpRequestedPayload } from '../domain/events.js';
import type { OutgoingMail } from '../domain/ports.js';

export function helpRequestMail(to: string, request: HelpRequestedPayload): OutgoingMail {
  const device = [
    ['User id', String(request.user_id)],
    ['E-mail', request.email],
    ['App tenant', String(request.app_tenant_id)],
    ['Language', request.lang],
    ['Route', request.route],
    ['Device', request.device],
    ['OS', request.so],
    ['Engine version', request.engine_version],
    ['App version', request.app_version],
    ['App base version', request.app_base_version],
  ] as const;
  const text = [
    `Help request "${request.subject}" from ${request.email}`,
    '',
    request.message,
    '',
    '--',
    ...device.map(([label, value]) => `${label}: ${value ?? '-'}`),
    '',
  ].join('\n');
  return {
    to,
    subject: `[help:${request.subject}] ${request.email}`,
    text,
    replyTo: request.email,
  };
}
