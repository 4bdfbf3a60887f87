// The publisher API's audit log, kept by identity. An entry is recorded after
// the change it describes succeeded, so a failure to record it must not turn
// that success into an error: it is tried twice, and an entry identity could
// not take is logged whole at error level (the log is the record of last
// resort, and an alert on it tells an operator to replay it).
import type { Logger } from '@folio/logger';
import type { identity } from '@folio/proto';
import type { GuardedClient } from './index.js';

export interface AuditEntryInput {
  tenantId: number;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  requestId: string;
}

export class AuditLog {
  constructor(
    private readonly identity: GuardedClient<identity.IdentityServiceClient>,
    private readonly logger: Logger,
  ) {}

  async record(entry: AuditEntryInput): Promise<void> {
    const request: identity.RecordAuditEntryRequest = {
      tenantId: entry.tenantId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      detailsJson: JSON.stringify(entry.details),
      requestId: entry.requestId,
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.identity.recordAuditEntry(request);
        return;
      } catch (error) {
        if (attempt >= 2) {
          this.logger.error({ err: error, audit: entry }, 'audit entry not recorded');
          return;
        }
      }
    }
  }
}
