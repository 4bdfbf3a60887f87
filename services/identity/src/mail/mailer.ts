// Outgoing e-mail over SMTP (MailDev locally), pooled, with short timeouts:
// the login code is sent while the client waits.
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailSender, OutgoingMail } from '../domain/ports.js';

export class SmtpMailer implements MailSender {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    const secure = url.protocol === 'smtps:';
    this.transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port) || (secure ? 465 : 25),
      secure,
      ...(url.username && { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      pool: true,
      maxConnections: 5,
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 15_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html && { html: mail.html }),
      ...(mail.replyTo && { replyTo: mail.replyTo }),
    });
  }

  close(): void {
    this.transport.close();
  }
}

export { escapeHtml } from '@folio/text';
