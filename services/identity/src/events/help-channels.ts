// Help channel adapters: an inbox reached by SMTP, or a webhook that receives
// the help request as JSON (a chat or ticketing integration).
import type { HelpRequestedPayload } from '../domain/events.js';
import type { HelpChannel } from '../domain/help-routing.js';
import type { MailSender } from '../domain/ports.js';
import { helpRequestMail } from '../mail/help-request.js';

export class EmailHelpChannel implements HelpChannel {
  readonly description: string;

  constructor(
    private readonly mailer: MailSender,
    private readonly to: string,
  ) {
    this.description = `email:${to}`;
  }

  async deliver(request: HelpRequestedPayload): Promise<void> {
    await this.mailer.send(helpRequestMail(this.to, request));
  }
}

export class WebhookHelpChannel implements HelpChannel {
  readonly description: string;

  constructor(
    private readonly url: string,
    private readonly timeoutMs = 5_000,
  ) {
    this.description = `webhook:${new URL(url).origin}`;
  }

  /** Any answer but 2xx is a failure: the consumer retries, then dead-letters. */
  async deliver(request: HelpRequestedPayload): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'help.requested', ...request }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`help webhook answered ${response.status}`);
  }
}
