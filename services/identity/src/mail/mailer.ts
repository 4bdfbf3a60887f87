// Outgoing e-mail over SMTP (MailDev locally), pooled, with short timeouts:
// the login code is sent while the client waits.
import nodemailer, { type Transporter } from 'nodemailer';
import { inSpan, SpanKind } from '@folio/telemetry';
import type { MailSender, OutgoingMail } from '../domain/ports.js';

export class SmtpMailer implements MailSender {
  private readonly transport: Transporter;
  private readonly server: { 'server.address': string; 'server.port': number };

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    const secure = url.protocol === 'smtps:';
    this.server = { 'server.address': url.hostname, 'server.port': Number(url.port) || (secure ? 465 : 25) };
    this.transport = nodemailer.createTransport({
      host: this.server['server.address'],
      port: this.server['server.port'],
      secure,
      ...(url.username && { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      pool: true,
      maxConnections: 5,
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 15_000,
    });
  }

  /** A client span `smtp send` in the caller's trace (no instrumentation sees nodemailer's socket). */
  async send(mail: OutgoingMail): Promise<void> {
    await inSpan(
      'smtp send',
      () =>
        this.transport.sendMail({
          from: this.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html && { html: mail.html }),
          ...(mail.replyTo && { replyTo: mail.replyTo }),
        }),
      { kind: SpanKind.CLIENT, attributes: { ...this.server, 'network.protocol.name': 'smtp' } },
    );
  }

  close(): void {
    this.transport.close();
  }
}

export { escapeHtml } from '@folio/text';
