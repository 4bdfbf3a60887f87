// Help intake: the subjects a given app offers, with their stored labels, and
// the submission of a request, which is published as `help.requested` and
// routed asynchronously (support e-mail, engineering, messaging channel).
// `delete-account-and-data` from a non-admin also requests the erasure of
// the account.
import { invalidCredentials, invalidFields, nulFieldErrors } from './errors.js';
import { EVENT, type AccountDeletionRequestedPayload, type HelpRequestedPayload, type HelpRoute } from './events.js';
import { langOf, type EventSink } from './ports.js';
import type { IdentityRepositories } from './repositories.js';
import { appTenantIdOf, DEFAULT_TENANT_ID, type TenantDirectory } from './tenants.js';

export const DELETE_ACCOUNT_SUBJECT = 'delete-account-and-data';
const MIN_MESSAGE = 10;
const ROUTES: readonly HelpRoute[] = ['support', 'engineering', 'messaging'];

export interface HelpSubmission {
  userId: number;
  appTenantId: number;
  subject: string;
  message: string;
  lang: string;
  engineVersion?: string | undefined;
  device?: string | undefined;
  so?: string | undefined;
  appVersion?: string | undefined;
  appBaseVersion?: string | undefined;
}

/** A help subject as offered: its key and its label per language. */
export interface HelpSubject {
  key: string;
  labels: Record<string, string>;
}

function labelsOf(labelsByLang: Record<string, Record<string, string>>, key: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [lang, byKey] of Object.entries(labelsByLang)) {
    const label = byKey[key];
    if (typeof label === 'string') labels[lang] = label;
  }
  return labels;
}

export class HelpDesk {
  constructor(
    private readonly store: Pick<IdentityRepositories, 'helpConfig' | 'users'>,
    private readonly tenants: TenantDirectory,
    private readonly events: EventSink,
  ) {}

  /**
   * The dataset's subjects in order, minus the app tenant's hidden ones and
   * generic-app-only ones in branded apps, each with its labels as stored
   * (language to text): which one a client sees is the gateway's choice.
   */
  async subjects(appTenantId: number): Promise<HelpSubject[]> {
    const tenant = await this.tenants.appTenant(appTenantId);
    const config = await this.store.helpConfig.get();
    if (!config) return [];
    const hidden = new Set(tenant.help_subjects_hidden ?? []);
    const genericOnly = new Set(tenant._id === DEFAULT_TENANT_ID ? [] : config.generic_app_only);
    return config.subjects.filter((key) => !hidden.has(key) && !genericOnly.has(key)).map((key) => ({ key, labels: labelsOf(config.labels, key) }));
  }

  async submit(request: HelpSubmission): Promise<void> {
    const user = request.userId > 0 ? await this.store.users.findById(request.userId) : null;
    if (!user) throw invalidCredentials();
    const appTenantId = appTenantIdOf(request.appTenantId);
    const offered = await this.subjects(appTenantId);
    const config = await this.store.helpConfig.get();

    const errors: Record<string, string[]> = {};
    if (!request.subject) errors.subject = ['The subject field is required.'];
    else if (!offered.some((subject) => subject.key === request.subject)) errors.subject = ['The selected subject is invalid.'];
    const message = (request.message ?? '').trim();
    if (!message) errors.message = ['The message field is required.'];
    else if ([...message].length < MIN_MESSAGE) errors.message = [`The message must be at least ${MIN_MESSAGE} characters.`];
    Object.assign(errors, nulFieldErrors({ message, device: request.device, so: request.so }));
    if (Object.keys(errors).length) throw invalidFields(errors);

    const configured = config?.routing[request.subject];
    const route: HelpRoute = ROUTES.includes(configured as HelpRoute) ? (configured as HelpRoute) : 'support';
    const payload: HelpRequestedPayload = {
      user_id: user._id,
      email: user.email,
      app_tenant_id: appTenantId,
      subject: request.subject,
      route,
      message,
      lang: langOf(request.lang),
      engine_version: request.engineVersion || null,
      device: request.device || null,
      so: request.so || null,
      app_version: request.appVersion || null,
      app_base_version: request.appBaseVersion || null,
    };
    await this.events.publish(EVENT.helpRequested, payload, { tenantId: appTenantId });
    if (request.subject === DELETE_ACCOUNT_SUBJECT && !user.admin) {
      await this.events.publish<AccountDeletionRequestedPayload>(
        EVENT.accountDeletionRequested,
        // The account spans every tenant: the event is not tenant-scoped.
        { user_id: user._id, email: user.email },
      );
    }
  }
}
