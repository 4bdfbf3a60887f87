// What reader needs from its peers, in its own terms: tenant settings
// (identity), issue metadata and favorites (catalog), the access decision
// (commerce). Adapters in peers/ implement it over gRPC.

export interface TenantInfo {
  id: number;
  name: string;
  domain: string;
  lang: string;
  previewPercentage: number;
  features: { tts: boolean; search: boolean; concurrency_limit: boolean; chinese_voice: boolean };
  /** Reader defaults as the tenant configured them (null: not set). */
  reader: { pdfLayout: string | null; tts: boolean; theme: string | null; extras: string[]; customStyles: Record<string, unknown> | null };
  exitUrl: string;
  twitterUser: string;
}

export interface IssueInfo {
  id: number;
  tenantId: number;
  name: string;
  slug: string;
  coverUrl: string;
  /** `YYYY-MM-DD hh:mm:ss`, UTC. */
  publishedAt: string;
  type: string;
  description: string;
  externalId: string;
  numberOfPages: number | null;
  lang: string;
  author: string;
  publisher: string;
  tags: { author: string[]; keyword: string[]; edition: string[] };
}

export interface AccessInfo {
  canRead: boolean;
  reason: 'free' | 'purchased' | 'subscription' | null;
  /** End of a time-limited grant; null when it does not end. */
  expiresAt: Date | null;
  free: boolean;
  prices: { currency: string; amount: number; discount?: { amount: number } | null }[];
}

export interface Peers {
  tenant(tenantId: number): Promise<TenantInfo>;
  issue(tenantId: number, issueId: number): Promise<IssueInfo>;
  /** False when catalog cannot tell (a favorite flag never blocks reading). */
  isFavorite(tenantId: number, userId: number, issueId: number): Promise<boolean>;
  access(tenantId: number, userId: number, issueId: number): Promise<AccessInfo>;
}
