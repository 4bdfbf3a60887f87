// Where a help request goes once it has been accepted: each route (support,
// engineering, messaging) is a channel adapter chosen at start-up, e.g. an
// e-mail inbox or a webhook.
import type { HelpRequestedPayload, HelpRoute } from './events.js';

export interface HelpChannel {
  /** For logs: `email:support@...`, `webhook:https://...`. */
  readonly description: string;
  deliver(request: HelpRequestedPayload): Promise<void>;
}

export class HelpRouter {
  constructor(private readonly channels: Record<HelpRoute, HelpChannel>) {}

  channelFor(route: string): HelpChannel {
    return this.channels[route as HelpRoute] ?? this.channels.support;
  }

  async route(request: HelpRequestedPayload): Promise<HelpChannel> {
    const channel = this.channelFor(request.route);
    await channel.deliver(request);
    return channel;
  }
}
